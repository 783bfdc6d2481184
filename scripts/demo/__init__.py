"""The story of the bundled demo workspace (see scripts/make_demo_workspace.py)."""
