"""Settings, read once from the environment; import ``settings``."""

from __future__ import annotations

import os
from dataclasses import dataclass, field


def _env(name: str, default: str) -> str:
    return os.environ.get(name, default).strip()


def _flag(name: str, default: bool = False) -> bool:
    return _env(name, str(default)).lower() in {"1", "true", "yes", "on"}


@dataclass(frozen=True)
class Settings:
    debug: bool = field(default_factory=lambda: _flag("ACME_DEBUG"))
    database_url: str = field(
        default_factory=lambda: _env("DATABASE_URL", "postgresql://localhost/acme_billing")
    )
    redis_url: str = field(default_factory=lambda: _env("REDIS_URL", "redis://localhost:6379/0"))
    log_level: str = field(default_factory=lambda: _env("ACME_LOG_LEVEL", "INFO"))
    auth_realm: str = field(default_factory=lambda: _env("ACME_AUTH_REALM", "acme-billing"))
    legacy_auth: bool = field(default_factory=lambda: _flag("ACME_LEGACY_AUTH", True))
    jwt_issuer: str = field(
        default_factory=lambda: _env("ACME_JWT_ISSUER", "https://auth.acme.example")
    )
    jwt_keys_dir: str = field(
        default_factory=lambda: _env("ACME_JWT_KEYS_DIR", "/etc/acme-billing/keys")
    )


settings = Settings()
