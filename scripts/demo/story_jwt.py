"""The demo day's main thread: the JWT migration (INT-001), told in three acts between the
day's other work (:mod:`.story` interleaves them).
"""

from __future__ import annotations

from .actors import Agent, Human, Sim, text


def jwt_part_one(sim: Sim, maria: Human) -> None:
    """10:12-11:58, Claude Code: JWT tokens and keys (INT-001)."""
    sim.clock.at("10:12")
    agent = Agent(sim, "Claude Code")
    agent.start()
    agent.prompt(
        "Start the JWT migration (INT-001): token issuing and verification as "
        "docs/auth.md and ADR 0007 describe. Keys first."
    )
    agent.mcp(
        "paw_get_context", {"feature_slug": "jwt-auth-migration", "agent_name": "Claude Code"}
    )
    agent.read("docs/auth.md")
    agent.read("docs/adr/0007-jwt-auth.md")
    agent.read("src/acme_billing/auth/middleware.py")
    agent.select("INT-001", outcome="approval_requested")
    maria.approve(agent)

    agent.develop("src/acme_billing/auth/keys.py", text("src/acme_billing/auth/keys.py"))
    agent.develop("tests/auth/test_keys.py", text("tests/auth/test_keys.py"))
    agent.bash(
        "pytest tests/auth/test_keys.py -q",
        "Run the key ring tests",
        stdout="....\n4 passed in 0.09s\n",
    )
    algorithms_bug = {"algorithms=[ALGORITHM]": "algorithms=ALGORITHM"}
    agent.develop(
        "src/acme_billing/auth/jwt_tokens.py",
        text("src/acme_billing/auth/jwt_tokens.py"),
        drafts=algorithms_bug,
    )
    agent.develop("tests/auth/test_jwt_tokens.py", text("tests/auth/test_jwt_tokens.py"))
    agent.bash(
        "pytest tests/auth -q",
        "Run the auth tests",
        stdout="..FFFF....\n4 failed, 6 passed: InvalidAlgorithmError\n",
    )
    agent.read("src/acme_billing/auth/jwt_tokens.py")
    agent.fix("src/acme_billing/auth/jwt_tokens.py", algorithms_bug)
    agent.bash(
        "pytest tests/auth -q",
        "Run the auth tests again",
        stdout="..........\n10 passed in 1.84s\n",
    )
    agent.prompt(
        "Now the token endpoint: client-credentials grant, partners authenticate "
        "with their existing Basic secret."
    )
    agent.develop(
        "src/acme_billing/auth/token_endpoint.py", text("src/acme_billing/auth/token_endpoint.py")
    )
    agent.develop("tests/auth/test_token_endpoint.py", text("tests/auth/test_token_endpoint.py"))
    agent.bash(
        "pytest tests/auth/test_token_endpoint.py -q",
        "Run the token endpoint tests",
        stdout=".......\n7 passed in 1.02s\n",
    )
    # The legacy module is carved out of the scope, and the intents file is protected.
    agent.edit(
        "src/acme_billing/auth/legacy/basic_auth.py",
        '"""Check HTTP Basic credentials against the api_credentials table."""\n',
        '"""Check HTTP Basic credentials against the api_credentials table.\n\n'
        'Deprecated: use JWT bearer tokens (docs/auth.md).\n"""\n',
        expect="deny",
    )
    agent.edit(
        ".orchestration/active_intents.yaml",
        "    name: JWT Authentication Migration\n    status: IN_PROGRESS\n",
        "    name: JWT Authentication Migration\n    status: COMPLETED\n",
        expect="deny",
    )
    agent.prompt("While you're there, can you start on the rate limiter too?")
    agent.select("INT-003", outcome="selection_refused")  # locked to INT-001
    agent.edit(
        "src/acme_billing/auth/__init__.py",
        '"""Authentication of partner API requests."""\n',
        '"""Authentication of partner API requests: JWT bearer tokens, and Basic Auth '
        'while\nACME_LEGACY_AUTH is on."""\n',
    )
    agent.bash(
        "ruff check src/acme_billing/auth tests/auth && ruff format --check src/acme_billing/auth",
        "Lint the auth package",
        stdout="All checks passed!\n",
    )
    agent.end()


def jwt_part_two(sim: Sim, maria: Human) -> Agent:
    """15:08-16:45, Claude Code resumes INT-001: the middleware, rotation docs, RS256."""
    sim.clock.at("15:08")
    agent = Agent(sim, "Claude Code")
    agent.start(source="resume")
    agent.prompt(
        "Continue INT-001: accept Bearer tokens in the middleware, keep Basic Auth "
        "behind ACME_LEGACY_AUTH, and document key rotation."
    )
    agent.select("INT-001", outcome="approval_requested")
    maria.approve(agent)
    agent.read("src/acme_billing/auth/middleware.py")
    path = "src/acme_billing/auth/middleware.py"
    agent.edit(
        path,
        "from acme_billing.auth.legacy.basic_auth import check_basic_credentials\n",
        "from acme_billing.auth.jwt_tokens import TokenError, verify_token\n"
        "from acme_billing.auth.keys import KeyRing, load_key_ring\n"
        "from acme_billing.auth.legacy.basic_auth import check_basic_credentials\n"
        "from acme_billing.config import settings\n",
    )
    agent.edit(
        path,
        'PUBLIC_PATHS = frozenset({"/health"})\n',
        'PUBLIC_PATHS = frozenset({"/health"})\n\n\n'
        "def key_ring() -> KeyRing:\n"
        "    return load_key_ring(settings.jwt_keys_dir, settings.jwt_issuer)\n\n\n"
        "def legacy_auth_enabled() -> bool:\n"
        "    return settings.legacy_auth\n",
    )
    agent.edit(
        path,
        "        return self.user_id\n",
        "        return self.user_id\n\n\n"
        "class BearerAuthBackend(AuthenticationBackend):\n"
        "    async def authenticate(self, conn: HTTPConnection) -> tuple[AuthCredentials, BaseUser] | None:\n"
        '        header = conn.headers.get("authorization", "")\n'
        '        if not header.lower().startswith("bearer "):\n'
        "            return None\n"
        "        try:\n"
        "            claims = verify_token(key_ring(), header[7:].strip())\n"
        "        except TokenError as exc:\n"
        "            raise AuthenticationError(exc.reason) from None\n"
        "        return AuthCredentials(list(claims.scopes)), ApiUser(claims.subject, claims.account_id)\n",
    )
    agent.develop("tests/auth/test_middleware.py", text("tests/auth/test_middleware.py"))
    agent.bash(
        "pytest tests/auth/test_middleware.py -q",
        "Run the middleware tests",
        stdout="EEEE\nAttributeError: module has no attribute 'ApiAuthMiddleware'\n",
    )
    agent.edit(
        path,
        'def BasicAuthMiddleware(app: ASGIApp, realm: str = "acme-billing") -> ASGIApp:  # noqa: N802\n'
        '    """Used like a middleware class in app.py."""\n'
        "    return AuthenticationMiddleware(app, backend=BasicAuthBackend())\n",
        "class ApiAuthBackend(AuthenticationBackend):\n"
        '    """Bearer tokens; Basic Auth too while ACME_LEGACY_AUTH is on."""\n\n'
        "    async def authenticate(self, conn: HTTPConnection) -> tuple[AuthCredentials, BaseUser] | None:\n"
        "        if conn.url.path in PUBLIC_PATHS:\n"
        "            return None\n"
        "        found = await BearerAuthBackend().authenticate(conn)\n"
        "        if found is not None:\n"
        "            return found\n"
        "        if legacy_auth_enabled():\n"
        "            return await BasicAuthBackend().authenticate(conn)\n"
        '        raise AuthenticationError("missing bearer token")\n\n\n'
        'def ApiAuthMiddleware(app: ASGIApp, realm: str = "acme-billing") -> ASGIApp:  # noqa: N802\n'
        '    """Used like a middleware class in app.py."""\n'
        "    return AuthenticationMiddleware(app, backend=ApiAuthBackend())\n\n\n"
        "BasicAuthMiddleware = ApiAuthMiddleware  # app.py still imports the old name\n",
    )
    agent.bash(
        "pytest tests/auth -q", "Run the auth tests", stdout="..............\n14 passed in 2.31s\n"
    )
    # Switching app.py to the new name is outside INT-001: ask for a scope expansion instead.
    agent.edit(
        "src/acme_billing/app.py",
        "from acme_billing.auth.middleware import BasicAuthMiddleware\n",
        "from acme_billing.auth.middleware import ApiAuthMiddleware\n",
        expect="deny",
    )
    agent.prompt("Fine, leave app.py. Add scope checks for handlers next.")
    agent.develop("src/acme_billing/auth/scopes.py", text("src/acme_billing/auth/scopes.py"))
    agent.develop("tests/auth/test_scopes.py", text("tests/auth/test_scopes.py"))
    agent.bash(
        "pytest tests/auth -q",
        "Run the auth tests",
        stdout="......................\n22 passed in 2.40s\n",
    )
    agent.bash(
        "ruff check src/acme_billing/auth tests/auth",
        "Lint the auth package",
        stdout="All checks passed!\n",
    )
    return agent


def jwt_part_three(sim: Sim, agent: Agent) -> None:
    """17:00-17:29: the same session, still running at the end of the day."""
    sim.clock.at("17:00")
    agent.prompt("ADR 0007 says RS256. Switch the algorithm and document key rotation.")
    agent.bash(
        'sed -i \'s/ALGORITHM = "HS256"/ALGORITHM = "RS256"/\' src/acme_billing/auth/jwt_tokens.py',
        "Switch the signing algorithm to RS256",
        effect=lambda: sim.write(
            "src/acme_billing/auth/jwt_tokens.py",
            sim.read("src/acme_billing/auth/jwt_tokens.py").replace(
                'ALGORITHM = "HS256"', 'ALGORITHM = "RS256"'
            ),
        ),
    )
    agent.bash(
        "pytest tests/auth -q", "Run the auth tests", stdout="..............\n14 passed in 2.05s\n"
    )
    agent.multi_edit(
        "docs/auth.md",
        [
            ("## Target: JWT bearer tokens\n", "## JWT bearer tokens\n"),
            (
                "- Claims: `iss`, `sub` (user), `acct` (account), `scope` (space-separated), `iat`, `exp`, `jti`.\n",
                (
                    "- Claims: `iss`, `sub` (user), `acct` (account), `scope` (space-separated), `iat`, `exp`, `jti`.\n\n"
                    "## Key rotation\n\n"
                    '1. Add the new key to `keys.json` with `"active": true`; the newest active key signs.\n'
                    "2. Set the old key's `active` to false; it keeps verifying tokens it signed.\n"
                    "3. After 15 minutes (the token lifetime) plus 30 seconds, remove the old key.\n"
                ),
            ),
        ],
    )
    agent.edit("docs/auth.md", "## Today: HTTP Basic Auth\n", "## Legacy: HTTP Basic Auth\n")
    agent.edit(
        "tests/auth/test_jwt_tokens.py",
        'ISSUER = "https://auth.test"\n',
        'ISSUER = "https://auth.test"\n'
        "# RS256 needs real RSA keys; 2048 bits keeps the suite fast enough.\n",
    )
    agent.bash(
        "pytest tests/auth -q", "Run the auth tests", stdout="..............\n14 passed in 2.11s\n"
    )
    agent.prompt("Last thing today: partners must be able to revoke a leaked token.")
    agent.develop(
        "src/acme_billing/auth/revocation.py", text("src/acme_billing/auth/revocation.py")
    )
    agent.develop("tests/auth/test_revocation.py", text("tests/auth/test_revocation.py"))
    path = "src/acme_billing/auth/middleware.py"
    agent.edit(
        path,
        "from acme_billing.auth.legacy.basic_auth import check_basic_credentials\n",
        "from acme_billing.auth.legacy.basic_auth import check_basic_credentials\n"
        "from acme_billing.auth.revocation import RedisLike, is_revoked\n",
    )
    agent.edit(
        path,
        "def legacy_auth_enabled() -> bool:\n",
        "def redis_client() -> RedisLike:\n"
        "    import redis\n\n"
        "    return redis.Redis.from_url(settings.redis_url)\n\n\n"
        "def legacy_auth_enabled() -> bool:\n",
    )
    agent.edit(
        path,
        "            raise AuthenticationError(exc.reason) from None\n",
        "            raise AuthenticationError(exc.reason) from None\n"
        "        if is_revoked(redis_client(), claims):\n"
        '            raise AuthenticationError("token revoked")\n',
    )
    agent.bash(
        "pytest tests/auth -q",
        "Run the auth tests",
        stdout="EEEE..................\nredis.exceptions.ConnectionError\n",
    )
    agent.edit(
        "tests/auth/test_middleware.py",
        "from tests.auth.test_jwt_tokens import ISSUER, rsa_key\n",
        "from tests.auth.test_jwt_tokens import ISSUER, rsa_key\n"
        "from tests.auth.test_revocation import FakeRedis\n",
    )
    agent.edit(
        "tests/auth/test_middleware.py",
        '    monkeypatch.setattr(middleware, "key_ring", lambda: ring)\n',
        '    monkeypatch.setattr(middleware, "key_ring", lambda: ring)\n'
        '    monkeypatch.setattr(middleware, "redis_client", FakeRedis)\n',
    )
    agent.bash(
        "pytest tests/auth -q",
        "Run the auth tests",
        stdout="..........................\n26 passed in 2.52s\n",
    )
    agent.prompt("Good. Leave it there for today; I'll review tomorrow.")
