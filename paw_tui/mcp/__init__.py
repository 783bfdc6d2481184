"""The MCP server's own parts, none of which imports the ``mcp`` SDK at import time.

:mod:`paw_tui.mcp.tools` holds the six tools over the core and their exact wire schemas;
:mod:`paw_tui.mcp.stdio` the JSON-RPC stdio loop that answers the handshake and the tools
without loading the SDK (which costs the better part of a second to import), handing the
connection to the SDK (:mod:`paw_tui.mcp_server`) only for what it does not answer itself.
"""
