import AuthDomain
import PostgresStorage
import Registry

/// Auth on PostgreSQL, for `moa-server --database`: its schema and its store keys, which the
/// server's composition (`App/MoaPostgres`'s `PostgresStores`) gathers with the other features'.
public enum AuthPostgresStores: PostgresFeatureStores {
    /// Auth's schema on PostgreSQL: the final shape of SQLite's (`AuthMigrations`), in one step.
    ///
    /// Addresses compare as SQLite's `COLLATE NOCASE` does — ASCII letters folded, nothing else —
    /// through `lower(email COLLATE "C")`, whatever the database's locale: the unique index on
    /// `auth_users` and the look-ups use that expression. Throttles are keyed by the lower-cased
    /// key the store computes (``ThrottleKey``: per client, per address and client, per address). `auth_pins` is the terminal's, but a login may clear its count
    /// (`insertSession(…clearingWrongPins:…)`), so it exists here too.
    public static var migrations: PostgresMigrationSet {
        PostgresMigrationSet(
            feature: "Auth",
            steps: [
                .init(
                    "v1-create-tables",
                    [
                        """
                        CREATE TABLE auth_users (
                            id text PRIMARY KEY,
                            email text NOT NULL,
                            password_hash text NOT NULL,
                            created_at timestamptz NOT NULL,
                            verified_at timestamptz)
                        """,
                        #"CREATE UNIQUE INDEX auth_users_email_key ON auth_users (lower(email COLLATE "C"))"#,
                        """
                        CREATE TABLE auth_verifications (
                            user_id text PRIMARY KEY REFERENCES auth_users (id) ON DELETE CASCADE,
                            code_digest text NOT NULL,
                            expires_at timestamptz NOT NULL,
                            attempts bigint NOT NULL DEFAULT 0 CHECK (attempts >= 0))
                        """,
                        """
                        CREATE TABLE auth_sessions (
                            id text PRIMARY KEY,
                            family_id text NOT NULL,
                            user_id text NOT NULL REFERENCES auth_users (id) ON DELETE CASCADE,
                            access_digest text NOT NULL UNIQUE,
                            access_expires_at timestamptz NOT NULL,
                            refresh_digest text NOT NULL UNIQUE,
                            refresh_expires_at timestamptz NOT NULL,
                            created_at timestamptz NOT NULL,
                            rotated_at timestamptz,
                            revoked_at timestamptz)
                        """,
                        "CREATE INDEX auth_sessions_family_id ON auth_sessions (family_id)",
                        "CREATE INDEX auth_sessions_user_id ON auth_sessions (user_id)",
                        """
                        CREATE TABLE auth_throttles (
                            email text PRIMARY KEY,
                            failures bigint NOT NULL CHECK (failures >= 0),
                            window_start timestamptz,
                            locked_until timestamptz,
                            lockouts bigint NOT NULL CHECK (lockouts >= 0))
                        """,
                        """
                        CREATE TABLE auth_security_events (
                            id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
                            user_id text,
                            email text NOT NULL,
                            kind text NOT NULL,
                            at timestamptz NOT NULL)
                        """,
                        "CREATE INDEX auth_security_events_user_id ON auth_security_events (user_id)",
                        #"CREATE INDEX auth_security_events_email ON auth_security_events (lower(email COLLATE "C"))"#,
                        """
                        CREATE TABLE auth_pins (
                            user_id text PRIMARY KEY REFERENCES auth_users (id) ON DELETE CASCADE,
                            pin_hash text NOT NULL,
                            failures bigint NOT NULL DEFAULT 0 CHECK (failures >= 0),
                            updated_at timestamptz NOT NULL)
                        """,
                    ]),
                // SQLite's v4: whoever enters a sign-up's code chooses the password (issue 24).
                .init(
                    "v2-codes-choose-passwords",
                    [
                        "UPDATE auth_users SET password_hash = '!unverified' WHERE verified_at IS NULL",
                        "DELETE FROM auth_throttles WHERE strpos(email, ':') = 0",
                    ]),
            ])
    }

    /// Auth's store keys, on `database`: `AuthStoreKey`.
    public static func providers(_ database: PostgresAppDatabase) -> [Provider] {
        [.singleton(AuthStoreKey.self) { PostgresAuthStore(database: database) }]
    }
}
