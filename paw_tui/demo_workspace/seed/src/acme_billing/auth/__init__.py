"""Authentication of partner API requests."""
