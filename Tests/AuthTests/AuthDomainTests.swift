import AuthDomain
import AuthInterface
import Foundation
import Testing

@Suite("Auth: sign-up and verification")
struct RegistrationTests {
    @Test func signUpVerifyLoginHappyPath() async throws {
        let auth = try AuthHarness()
        let sent = try await auth.registration.signUp(email: "  Ada.Lovelace@EXAMPLE.com ", password: AuthHarness.password)
        #expect(sent.email == "ada.lovelace@example.com", "the canonical form: NFKC, lower-cased")
        #expect(auth.mail.mails.count == 1)
        let code = try #require(auth.mail.lastCode(to: "ada.lovelace@example.com"))
        try await auth.registration.verify(email: "ADA.lovelace@example.com", code: code)
        let user = try await auth.sessions.logIn(email: "Ada.Lovelace@example.com", password: AuthHarness.password)
        #expect(user.email == "ada.lovelace@example.com")
        #expect(try await auth.sessions.currentUser() == user)
    }

    @Test func aSecondSignUpWithTheSameAddressIsRefused() async throws {
        let auth = try AuthHarness()
        _ = try await auth.registration.signUp(email: "ada@example.com", password: AuthHarness.password)
        await #expect(throws: AuthError.emailTaken("ada@example.com")) {
            try await auth.registration.signUp(email: "ADA@example.com", password: AuthHarness.password)
        }
        #expect(try auth.count("SELECT COUNT(*) FROM auth_users") == 1)
    }

    @Test(arguments: [
        ("short pass 1", PasswordRule.tooShort(minimum: 15)),
        (String(repeating: "long passphrase ", count: 9), .tooLong(maximum: 128)),
        ("my name is ada and this is long", .containsEmail),
        ("passwordpassword", .common),
        ("123456789012345678", .common),
        ("zzzzzzzzzzzzzzzzzzzz", .common),
    ])
    func weakPasswordsNameTheRuleTheyBreak(password: String, rule: PasswordRule) async throws {
        let auth = try AuthHarness()
        await #expect(throws: AuthError.weakPassword(rule)) {
            try await auth.registration.signUp(email: "ada@example.com", password: password)
        }
        #expect(try auth.count("SELECT COUNT(*) FROM auth_users") == 0)
        #expect(auth.mail.mails.isEmpty)
    }

    @Test func passwordsAreNormalisedNFKCSoCompatibleFormsMatch() async throws {
        let auth = try AuthHarness()
        let fullwidth = "ＰａｓｓｐｈｒａｓｅＦｏｒＭｏａ２０２６" // fullwidth letters and digits
        _ = try await auth.registration.signUp(email: "ada@example.com", password: fullwidth)
        try await auth.registration.verify(email: "ada@example.com", code: auth.mail.lastCode(to: "ada@example.com") ?? "")
        _ = try await auth.sessions.logIn(email: "ada@example.com", password: "PassphraseForMoa2026")
    }

    @Test(arguments: ["no-at-sign", "@example.com", "ada@localhost", "ada@exa mple.com", "ada@-bad-.com", "ada..x@example.com"])
    func invalidAddressesAreRefusedWithAReason(email: String) async throws {
        let auth = try AuthHarness()
        await #expect {
            try await auth.registration.signUp(email: email, password: AuthHarness.password)
        } throws: { error in
            guard case .invalidEmail(_, let reason)? = error as? AuthError else { return false }
            return !reason.isEmpty
        }
    }

    @Test func aWrongCodeCountsDownAndTheFifthEndsIt() async throws {
        let auth = try AuthHarness()
        _ = try await auth.registration.signUp(email: "ada@example.com", password: AuthHarness.password)
        let code = try #require(auth.mail.lastCode(to: "ada@example.com"))
        let wrong = code == "000000" ? "111111" : "000000"
        for left in [4, 3, 2, 1] {
            await #expect(throws: AuthError.wrongCode(triesLeft: left)) {
                try await auth.registration.verify(email: "ada@example.com", code: wrong)
            }
        }
        await #expect(throws: AuthError.tooManyCodeAttempts) { try await auth.registration.verify(email: "ada@example.com", code: wrong) }
        // The fifth wrong code also locked the address for a minute, as five failed logins do.
        let locked = auth.clock.now().addingTimeInterval(60)
        await #expect(throws: AuthError.codesLocked(until: locked)) {
            try await auth.registration.verify(email: "ada@example.com", code: code)
        }
        await #expect(throws: AuthError.codesLocked(until: locked)) { try await auth.registration.resendCode(email: "ada@example.com") }
        auth.clock.advance(by: 61)
        await #expect(throws: AuthError.tooManyCodeAttempts) { try await auth.registration.verify(email: "ada@example.com", code: code) }
        // A new code works again.
        _ = try await auth.registration.resendCode(email: "ada@example.com")
        try await auth.registration.verify(email: "ada@example.com", code: auth.mail.lastCode(to: "ada@example.com") ?? "")
    }

    /// New codes do not buy new guesses, and do not flood a mailbox: at most one a minute.
    @Test func newCodesAreRationed() async throws {
        let auth = try AuthHarness()
        _ = try await auth.registration.signUp(email: "ada@example.com", password: AuthHarness.password)
        let soon = auth.clock.now().addingTimeInterval(60)
        await #expect(throws: AuthError.resendTooSoon(until: soon)) { try await auth.registration.resendCode(email: "ada@example.com") }
        #expect(auth.mail.mails.count == 1)
        // Guessing across new codes: each one's wrong tries count toward the address's five.
        for _ in 0..<2 {
            auth.clock.advance(by: 61)
            _ = try await auth.registration.resendCode(email: "ada@example.com")
            let code = try #require(auth.mail.lastCode(to: "ada@example.com"))
            let wrong = code == "000000" ? "111111" : "000000"
            for _ in 0..<2 { _ = try? await auth.registration.verify(email: "ada@example.com", code: wrong) }
        }
        auth.clock.advance(by: 61)
        _ = try await auth.registration.resendCode(email: "ada@example.com")
        let code = try #require(auth.mail.lastCode(to: "ada@example.com"))
        let wrong = code == "000000" ? "111111" : "000000"
        await #expect(throws: AuthError.wrongCode(triesLeft: 4)) {
            try await auth.registration.verify(email: "ada@example.com", code: wrong)
        }
        await #expect(throws: AuthError.codesLocked(until: auth.clock.now().addingTimeInterval(60))) {
            try await auth.registration.verify(email: "ada@example.com", code: code)
        }
    }

    @Test func aCodeExpiresAfterTenMinutes() async throws {
        let auth = try AuthHarness()
        _ = try await auth.registration.signUp(email: "ada@example.com", password: AuthHarness.password)
        let code = try #require(auth.mail.lastCode(to: "ada@example.com"))
        auth.clock.advance(by: 10 * 60)
        await #expect(throws: AuthError.codeExpired) { try await auth.registration.verify(email: "ada@example.com", code: code) }
    }

    @Test func loginBeforeVerificationIsRefusedAndSaysSo() async throws {
        let auth = try AuthHarness()
        _ = try await auth.registration.signUp(email: "ada@example.com", password: AuthHarness.password)
        await #expect(throws: AuthError.notVerified("ada@example.com")) {
            try await auth.sessions.logIn(email: "ada@example.com", password: AuthHarness.password)
        }
        #expect(auth.store.current == nil)
    }
}

@Suite("Auth: login throttling")
struct ThrottlingTests {
    @Test func fiveFailuresLockTheAddressEvenForTheRightPasswordUntilTheDelayPasses() async throws {
        let auth = try AuthHarness()
        try await auth.verifiedUser()
        for _ in 0..<5 {
            await #expect(throws: AuthError.wrongCredentials) {
                try await auth.sessions.logIn(email: "ada@example.com", password: "not the password at all")
            }
        }
        await #expect {
            try await auth.sessions.logIn(email: "ada@example.com", password: AuthHarness.password)
        } throws: { error in
            guard case .throttled(let until)? = error as? AuthError else { return false }
            return until == auth.clock.now().addingTimeInterval(60)
        }
        #expect(try auth.count("SELECT COUNT(*) FROM auth_security_events WHERE kind = 'login-lockout'") == 1)
        auth.clock.advance(by: 61)
        _ = try await auth.sessions.logIn(email: "ada@example.com", password: AuthHarness.password)
    }

    /// Several `moa-server`s share one database: another process may lock the address while this
    /// one checks a password. Then even the right password is refused, and a wrong one counts nothing
    /// more (no second lockout, no second notice).
    @Test(arguments: [AuthHarness.password, "not the password at all"])
    func anAddressLockedByAnotherProcessDuringTheCheckRefusesTheLogin(password: String) async throws {
        let auth = try AuthHarness()
        try await auth.verifiedUser()
        let until = auth.clock.now().addingTimeInterval(60)
        auth.hasher.duringVerification.withLock { $0 = auth.locking("ada@example.com", until: until) }
        await #expect(throws: AuthError.throttled(until: until)) {
            try await auth.sessions.logIn(email: "ada@example.com", password: password)
        }
        #expect(auth.store.current == nil)
        #expect(try await auth.repository.throttle(for: "ada@example.com").lockouts == 1)
        #expect(try auth.count("SELECT COUNT(*) FROM auth_sessions") == 0)
    }

    @Test func eachLockoutDoublesTheDelayAndItSurvivesARestart() async throws {
        let auth = try AuthHarness()
        try await auth.verifiedUser()
        for round in 1...3 {
            for _ in 0..<5 { _ = try? await auth.sessions.logIn(email: "ada@example.com", password: "wrong wrong wrong wrong") }
            let state = try await auth.repository.throttle(for: "ada@example.com")
            #expect(state.lockedUntil == auth.clock.now().addingTimeInterval(60 * pow(2, Double(round - 1))))
            auth.clock.advance(by: 60 * pow(2, Double(round - 1)) + 1)
        }
        // A new SessionManager (a new process) reads the stored state.
        let restarted = SessionManager(
            repository: auth.repository, hasher: auth.hasher, secrets: auth.secrets, store: auth.store, clock: auth.clock)
        for _ in 0..<5 { _ = try? await restarted.logIn(email: "ada@example.com", password: "wrong wrong wrong wrong") }
        #expect(try await auth.repository.throttle(for: "ada@example.com").lockouts == 4)
    }

    @Test func anUnknownAddressGetsTheSameAnswerCostAndLockout() async throws {
        let auth = try AuthHarness()
        try await auth.verifiedUser()
        let before = auth.hasher.verificationCount
        var messages: Set<String> = []
        for email in ["ada@example.com", "nobody@example.com"] {
            do {
                _ = try await auth.sessions.logIn(email: email, password: "wrong wrong wrong wrong")
            } catch let error as AuthError {
                messages.insert(error.message)
            }
        }
        #expect(messages == [AuthError.wrongCredentials.message])
        #expect(auth.hasher.verificationCount - before == 2) // one scrypt-equivalent each
        for _ in 0..<4 { _ = try? await auth.sessions.logIn(email: "nobody@example.com", password: "wrong wrong wrong wrong") }
        await #expect {
            try await auth.sessions.logIn(email: "nobody@example.com", password: "wrong wrong wrong wrong")
        } throws: { error in
            if case .throttled? = error as? AuthError { return true }
            return false
        }
    }

    @Test func aWeakerStoredHashIsUpgradedAtTheNextLogin() async throws {
        let old = try AuthHarness(hasher: FakeHasher(version: 1))
        try await old.verifiedUser()
        let upgraded = SessionManager(
            repository: old.repository, hasher: FakeHasher(version: 2), secrets: old.secrets, store: old.store, clock: old.clock)
        _ = try await upgraded.logIn(email: "ada@example.com", password: AuthHarness.password)
        #expect(try await old.repository.user(email: "ada@example.com")?.passwordHash.hasPrefix("fake-v2$") == true)
    }
}

@Suite("Auth: sessions and tokens")
struct SessionTests {
    @Test func anExpiredAccessTokenIsRefreshedAndTheRefreshTokenRotated() async throws {
        let auth = try AuthHarness()
        try await auth.verifiedUser()
        _ = try await auth.sessions.logIn(email: "ada@example.com", password: AuthHarness.password)
        let first = try #require(auth.store.current)
        auth.clock.advance(by: 15 * 60)
        #expect(try await auth.sessions.currentUser()?.email == "ada@example.com")
        let second = try #require(auth.store.current)
        #expect(second.refreshToken != first.refreshToken)
        #expect(second.accessToken != first.accessToken)
        #expect(try auth.count("SELECT COUNT(*) FROM auth_sessions WHERE rotated_at IS NOT NULL") == 1)
    }

    @Test func tokensAreStoredOnlyAsDigests() async throws {
        let auth = try AuthHarness()
        try await auth.verifiedUser()
        _ = try await auth.sessions.logIn(email: "ada@example.com", password: AuthHarness.password)
        let session = try #require(auth.store.current)
        #expect(session.accessToken.utf8.count >= 43) // 256 bits, base64url
        let dump = try auth.database.read { db in
            try String.fetchAll(db, sql: "SELECT access_digest || ' ' || refresh_digest FROM auth_sessions")
        }.joined()
        #expect(!dump.contains(session.accessToken))
        #expect(!dump.contains(session.refreshToken))
        #expect(dump.contains(auth.secrets.digest(session.refreshToken)))
    }

    @Test func reusingARotatedRefreshTokenRevokesTheWholeFamily() async throws {
        let auth = try AuthHarness()
        try await auth.verifiedUser()
        _ = try await auth.sessions.logIn(email: "ada@example.com", password: AuthHarness.password)
        let stolen = try #require(auth.store.current)
        auth.clock.advance(by: 16 * 60)
        _ = try await auth.sessions.currentUser() // the owner refreshes: `stolen` is now rotated
        let owners = try #require(auth.store.current)

        // The thief replays the old token (from a copy of the session file).
        let thief = MemorySessionStore()
        try thief.save(stolen)
        let thiefs = SessionManager(
            repository: auth.repository, hasher: auth.hasher, secrets: auth.secrets, store: thief, clock: auth.clock)
        auth.clock.advance(by: 16 * 60)
        #expect(try await thiefs.currentUser() == nil)
        #expect(try auth.count("SELECT COUNT(*) FROM auth_security_events WHERE kind = 'refresh-token-reuse'") == 1)
        #expect(try auth.count("SELECT COUNT(*) FROM auth_sessions WHERE revoked_at IS NULL") == 0)
        // The owner's newer generation is revoked with the family.
        let again = SessionManager(
            repository: auth.repository, hasher: auth.hasher, secrets: auth.secrets, store: auth.store, clock: auth.clock)
        #expect(auth.store.current == owners)
        #expect(try await again.currentUser() == nil)
    }

    @Test func concurrentCallersWithAnExpiredTokenCauseExactlyOneRefresh() async throws {
        let auth = try AuthHarness()
        try await auth.verifiedUser()
        _ = try await auth.sessions.logIn(email: "ada@example.com", password: AuthHarness.password)
        auth.clock.advance(by: 20 * 60)
        let users = try await withThrowingTaskGroup(of: AuthenticatedUser?.self) { group in
            for _ in 0..<25 { group.addTask { try await auth.sessions.currentUser() } }
            return try await group.reduce(into: [AuthenticatedUser?]()) { $0.append($1) }
        }
        #expect(users.count == 25)
        #expect(users.allSatisfy { $0?.email == "ada@example.com" })
        #expect(try auth.count("SELECT COUNT(*) FROM auth_sessions") == 2) // the login + one rotation
    }

    @Test func aRefreshTokenExpiresAfterFourteenDays() async throws {
        let auth = try AuthHarness()
        try await auth.verifiedUser()
        _ = try await auth.sessions.logIn(email: "ada@example.com", password: AuthHarness.password)
        auth.clock.advance(by: 14 * 24 * 3600)
        #expect(try await auth.sessions.currentUser() == nil)
        #expect(auth.store.current == nil)
        await #expect(throws: NotLoggedInError()) { try await auth.sessions.requireUser() }
    }

    @Test func logoutEndsThisSessionAndLogoutAllEndsEveryOne() async throws {
        let auth = try AuthHarness()
        try await auth.verifiedUser()
        _ = try await auth.sessions.logIn(email: "ada@example.com", password: AuthHarness.password)
        let laptop = MemorySessionStore()
        let other = SessionManager(
            repository: auth.repository, hasher: auth.hasher, secrets: auth.secrets, store: laptop, clock: auth.clock)
        _ = try await other.logIn(email: "ada@example.com", password: AuthHarness.password)

        #expect(try await auth.sessions.logOut(everywhere: false)?.email == "ada@example.com")
        #expect(try await auth.sessions.currentUser() == nil)
        #expect(try await other.currentUser()?.email == "ada@example.com")

        _ = try await auth.sessions.logIn(email: "ada@example.com", password: AuthHarness.password)
        _ = try await auth.sessions.logOut(everywhere: true)
        #expect(try await other.currentUser() == nil)
        #expect(try auth.count("SELECT COUNT(*) FROM auth_sessions WHERE revoked_at IS NULL") == 0)
    }
}

@Suite("Auth: one address, one account (canonical e-mail addresses)")
struct EmailIdentityTests {
    @Test(arguments: [
        ("ada@example.com", "ada@example.com"),
        ("  Ada.Lovelace@EXAMPLE.com ", "ada.lovelace@example.com"),
        ("ａｄａ@example.com", "ada@example.com"), // full-width letters
        ("ＡＤＡ＠ＥＸＡＭＰＬＥ．ＣＯＭ", "ada@example.com"), // full-width capitals, at sign and full stop
        ("ﬁona@example.com", "fiona@example.com"), // the ﬁ ligature
        ("Ünal@example.com", "ünal@example.com"),
    ])
    func everyFormOfAnAddressHasOneCanonicalForm(typed: String, canonical: String) throws {
        #expect(try EmailAddress(typed).value == canonical)
        #expect(EmailAddress.canonical(typed.trimmingCharacters(in: .whitespaces)) == canonical)
    }

    @Test func aFullWidthLookAlikeCannotSignUpASecondAccount() async throws {
        let auth = try AuthHarness()
        try await auth.verifiedUser("ada@example.com")
        for lookAlike in ["ａｄａ@example.com", "ＡＤＡ@example.com", "Ada@Example.com", "ada＠example．com"] {
            await #expect(throws: AuthError.emailTaken("ada@example.com")) {
                try await auth.registration.signUp(email: lookAlike, password: AuthHarness.password)
            }
        }
        #expect(try auth.count("SELECT COUNT(*) FROM auth_users") == 1)
        #expect(auth.mail.mails.count == 1, "only the first sign-up mailed a code")
    }

    @Test func logInVerifyAndResetFindTheAccountWhateverFormIsTyped() async throws {
        let auth = try AuthHarness()
        _ = try await auth.registration.signUp(email: "ａｄａ@example.com", password: AuthHarness.password)
        #expect(auth.mail.mails.last?.to == "ada@example.com")
        try await auth.registration.verify(email: "ADA@example.com", code: auth.mail.lastCode(to: "ada@example.com") ?? "")
        let user = try await auth.sessions.logIn(email: "ＡＤＡ@example.com", password: AuthHarness.password)
        #expect(user.email == "ada@example.com")
        #expect(try await auth.passwordReset.request(email: "ａｄａ@EXAMPLE.com") == "ada@example.com")
        #expect(auth.mail.mails.last?.purpose == .passwordReset && auth.mail.mails.last?.to == "ada@example.com")
    }

    @Test(arguments: [
        "ada\u{202E}moc.elpmaxe@example.com", // right-to-left override
        "\u{2066}ada@example.com", // left-to-right isolate
        "ada\u{200B}@example.com", // zero-width space
        "ad\u{00AD}a@example.com", // soft hyphen
        "ada@example.com\u{FEFF}", // byte-order mark
        "ada\u{07}@example.com", // BEL
        "ada\u{1B}[31m@example.com", // ESC
        "ada\u{85}@example.com", // NEL (C1)
    ])
    func addressesWithControlOrInvisibleCharactersAreRefused(typed: String) async throws {
        let auth = try AuthHarness()
        await #expect {
            try await auth.registration.signUp(email: typed, password: AuthHarness.password)
        } throws: { error in
            guard let error = error as? AuthError, case .invalidEmail(let shown, let reason) = error else { return false }
            return reason == "it contains a control or invisible formatting character" && error.exitStatus == .dataError
                && shown.contains("<U+") && !shown.unicodeScalars.contains { $0.properties.generalCategory == .format || $0.value < 0x20 }
                && error.message.hasSuffix("character.") && !error.message.hasSuffix("..")
        }
        #expect(try auth.count("SELECT COUNT(*) FROM auth_users") == 0)
        await #expect(throws: AuthError.self) { try await auth.sessions.logIn(email: typed, password: AuthHarness.password) }
    }

    @Test func aHugeAddressIsNotEchoedInFull() {
        let typed = String(repeating: "a", count: 5_000) + "@example.com"
        #expect {
            try EmailAddress(typed)
        } throws: { error in
            guard let error = error as? AuthError else { return false }
            return error.message.count < 200 && error.message.contains("…")
        }
    }
}
