"""A thin layer over the connection pool; queries are plain SQL with parameters."""

from __future__ import annotations

from typing import Any

from acme_billing.config import settings

_pool: Any = None


def pool() -> Any:
    global _pool
    if _pool is None:
        import psycopg_pool

        _pool = psycopg_pool.ConnectionPool(settings.database_url, min_size=1, max_size=10)
    return _pool


def fetch_one(query: str, *params: object) -> dict[str, Any] | None:
    with pool().connection() as conn, conn.cursor() as cur:
        cur.execute(query, params)
        row = cur.fetchone()
        if row is None:
            return None
        return dict(zip([col.name for col in cur.description], row))
