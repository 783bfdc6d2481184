"""HTTP Basic Auth, kept while partners migrate (ACME_LEGACY_AUTH)."""
