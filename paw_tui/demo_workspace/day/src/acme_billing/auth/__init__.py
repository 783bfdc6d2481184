"""Authentication of partner API requests: JWT bearer tokens, and Basic Auth while
ACME_LEGACY_AUTH is on."""
