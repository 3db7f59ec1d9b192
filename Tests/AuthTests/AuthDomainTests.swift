import AuthDomain
import AuthInterface
import Foundation
import GRDB
import Testing

@Suite("Auth: sign-up and verification")
struct RegistrationTests {
    @Test func signUpVerifyLoginHappyPath() async throws {
        let auth = try AuthHarness()
        let sent = try await auth.registration.signUp(email: "  Ada.Lovelace@EXAMPLE.com ", password: AuthHarness.password)
        #expect(sent.email == "ada.lovelace@example.com", "the canonical form: NFKC, lower-cased")
        #expect(auth.mail.mails.count == 1)
        let code = try #require(auth.mail.lastCode(to: "ada.lovelace@example.com"))
        try await auth.registration.verify(email: "ADA.lovelace@example.com", code: code, password: AuthHarness.password)
        let user = try await auth.sessions.logIn(email: "Ada.Lovelace@example.com", password: AuthHarness.password)
        #expect(user.email == "ada.lovelace@example.com")
        #expect(try await auth.sessions.currentUser() == user)
    }

    /// Issue 24, defect 1: Mallory signs up with Ada's address and a password of his own. Ada's own
    /// sign-up is not refused, and whichever code she enters, the password is the one she gives
    /// with it — never Mallory's.
    @Test func aSignUpWithSomeoneElsesAddressNeverSetsTheirPassword() async throws {
        let auth = try AuthHarness()
        let mallorys = "mallory's own password, 2026"
        _ = try await auth.registration.signUp(email: "ada@example.com", password: mallorys)
        let first = try #require(auth.mail.lastCode(to: "ada@example.com"))
        auth.clock.advance(by: 61)
        let answer = try await auth.registration.signUp(email: "ada@example.com", password: AuthHarness.password)
        #expect(answer.email == "ada@example.com", "Ada's sign-up is answered, not refused")
        let second = try #require(auth.mail.lastCode(to: "ada@example.com"))
        #expect(second != first || auth.mail.mails.count == 2)
        // Before anyone verifies, Mallory's password opens nothing.
        await #expect(throws: AuthError.wrongCredentials) { try await auth.sessions.logIn(email: "ada@example.com", password: mallorys) }
        try await auth.registration.verify(email: "ada@example.com", code: second, password: AuthHarness.password)
        await #expect(throws: AuthError.wrongCredentials) { try await auth.sessions.logIn(email: "ada@example.com", password: mallorys) }
        _ = try await auth.sessions.logIn(email: "ada@example.com", password: AuthHarness.password)
        #expect(try auth.count("SELECT COUNT(*) FROM auth_users") == 1)
    }

    /// A reset proves the mailbox too: an address left waiting by someone else's sign-up gets a code,
    /// and the password set with it is the owner's.
    @Test func aResetOfAnAddressStillWaitingSetsTheOwnersPasswordAndVerifiesIt() async throws {
        let auth = try AuthHarness()
        _ = try await auth.registration.signUp(email: "ada@example.com", password: "mallory's own password, 2026")
        auth.clock.advance(by: 61)
        _ = try await auth.passwordReset.request(email: "ada@example.com")
        let code = try #require(auth.mail.lastCode(to: "ada@example.com"))
        _ = try await auth.passwordReset.complete(email: "ada@example.com", code: code, newPassword: AuthHarness.password)
        _ = try await auth.sessions.logIn(email: "ada@example.com", password: AuthHarness.password)
        await #expect(throws: AuthError.wrongCredentials) {
            try await auth.sessions.logIn(email: "ada@example.com", password: "mallory's own password, 2026")
        }
    }

    /// Issue 24, defect 4: a sign-up answers alike for a new address, a waiting one and one with an
    /// account, whose owner is mailed that someone tried (at most once a minute).
    @Test func aSignUpAnswersAlikeForEveryAddressAndTellsAnOwner() async throws {
        let auth = try AuthHarness()
        try await auth.verifiedUser()
        _ = try await auth.registration.signUp(email: "bo@example.com", password: AuthHarness.password)
        var answers: [String: String] = [:]
        for email in ["ada@example.com", "bo@example.com", "cy@example.com"] {
            let sent = try await auth.registration.signUp(email: email, password: AuthHarness.password)
            answers[email] = "\(sent.email.split(separator: "@")[1])"
        }
        #expect(Set(answers.values) == ["example.com"])
        let toAda = auth.mail.mails.filter { $0.to == "ada@example.com" }
        #expect(toAda.last?.subject == "Someone tried to sign up to Moa with your address")
        #expect(!(toAda.last?.body.contains(AuthHarness.password) ?? true))
        _ = try await auth.registration.signUp(email: "ada@example.com", password: AuthHarness.password)
        #expect(auth.mail.mails.filter { $0.to == "ada@example.com" }.count == toAda.count, "one notice a minute at most")
        _ = try await auth.sessions.logIn(email: "ada@example.com", password: AuthHarness.password)
        // Each notice is a security event of Ada's account, recorded as often as she is mailed.
        let refused = try auth.database.read { db in
            try String.fetchAll(db, sql: "SELECT email FROM auth_security_events WHERE kind = 'sign-up-refused'")
        }
        #expect(refused == ["ada@example.com"])
        auth.clock.advance(by: 61)
        _ = try await auth.registration.signUp(email: "ada@example.com", password: AuthHarness.password)
        #expect(
            try auth.database.read { db in
                try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM auth_security_events WHERE kind = 'sign-up-refused'")
            } == 2)
    }

    /// Verify and resend answer alike whatever the address: no "no pending verification", no
    /// "resend too soon" that only a waiting address would get.
    @Test func verifyAndResendAnswerAlikeForEveryAddress() async throws {
        let auth = try AuthHarness()
        try await auth.verifiedUser()
        _ = try await auth.registration.signUp(email: "bo@example.com", password: AuthHarness.password)
        for email in ["ada@example.com", "bo@example.com", "nobody@example.com"] {
            await #expect(throws: AuthError.codeRejected) {
                try await auth.registration.verify(email: email, code: "000001", password: AuthHarness.password)
            }
            let sent = try await auth.registration.resendCode(email: email)
            #expect(sent.email == email && sent.location == nil, "nothing new within the minute, and nothing for the others")
        }
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
        _ = try await auth.registration.signUp(email: "ada@example.com", password: AuthHarness.password)
        let code = try #require(auth.mail.lastCode(to: "ada@example.com"))
        await #expect(throws: AuthError.weakPassword(rule)) {
            try await auth.registration.verify(email: "ada@example.com", code: code, password: password)
        }
    }

    @Test func passwordsAreNormalisedNFKCSoCompatibleFormsMatch() async throws {
        let auth = try AuthHarness()
        let fullwidth = "ＰａｓｓｐｈｒａｓｅＦｏｒＭｏａ２０２６" // fullwidth letters and digits
        _ = try await auth.registration.signUp(email: "ada@example.com", password: fullwidth)
        try await auth.registration.verify(
            email: "ada@example.com", code: auth.mail.lastCode(to: "ada@example.com") ?? "", password: fullwidth)
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

    /// Wrong codes lock out the client that enters them after five (counted across new codes), and
    /// a code dies after ten wrong tries from everywhere; the owner's next code still works.
    @Test func wrongCodesLockTheGuesserAndACodeDiesAfterTenTries() async throws {
        let auth = try AuthHarness()
        _ = try await auth.registration.signUp(email: "ada@example.com", password: AuthHarness.password)
        let code = try #require(auth.mail.lastCode(to: "ada@example.com"))
        let wrong = code == "000000" ? "111111" : "000000"
        let guesser = auth.registration(from: "203.0.113.9")
        for _ in 0..<5 {
            await #expect(throws: AuthError.codeRejected) {
                try await guesser.verify(email: "ada@example.com", code: wrong, password: AuthHarness.password)
            }
        }
        let locked = auth.clock.now().addingTimeInterval(10 * 60)
        await #expect(throws: AuthError.codesLocked(until: locked)) {
            try await guesser.verify(email: "ada@example.com", code: code, password: AuthHarness.password)
        }
        // Another client — the owner — is not locked, and the code survived the guesser.
        let owner = auth.registration(from: "198.51.100.7")
        try await owner.verify(email: "ada@example.com", code: code, password: AuthHarness.password)
        _ = try await auth.sessions.logIn(email: "ada@example.com", password: AuthHarness.password)
    }

    @Test func aCodeDiesAfterTenWrongTriesFromEverywhere() async throws {
        let auth = try AuthHarness()
        _ = try await auth.registration.signUp(email: "ada@example.com", password: AuthHarness.password)
        let code = try #require(auth.mail.lastCode(to: "ada@example.com"))
        let wrong = code == "000000" ? "111111" : "000000"
        for client in 0..<10 {
            _ = try? await auth.registration(from: "203.0.113.\(client)").verify(
                email: "ada@example.com", code: wrong, password: AuthHarness.password)
        }
        await #expect(throws: AuthError.codeRejected) {
            try await auth.registration.verify(email: "ada@example.com", code: code, password: AuthHarness.password)
        }
        auth.clock.advance(by: 61)
        _ = try await auth.registration.resendCode(email: "ada@example.com")
        try await auth.registration.verify(
            email: "ada@example.com", code: auth.mail.lastCode(to: "ada@example.com") ?? "", password: AuthHarness.password)
    }

    /// New codes do not flood a mailbox: at most one a minute, and the answer says nothing of it.
    @Test func newCodesAreRationedSilently() async throws {
        let auth = try AuthHarness()
        _ = try await auth.registration.signUp(email: "ada@example.com", password: AuthHarness.password)
        let again = try await auth.registration.resendCode(email: "ada@example.com")
        #expect(again.location == nil && auth.mail.mails.count == 1)
        auth.clock.advance(by: 61)
        let later = try await auth.registration.resendCode(email: "ada@example.com")
        #expect(later.location != nil && auth.mail.mails.count == 2)
    }

    @Test func aCodeExpiresAfterTenMinutes() async throws {
        let auth = try AuthHarness()
        _ = try await auth.registration.signUp(email: "ada@example.com", password: AuthHarness.password)
        let code = try #require(auth.mail.lastCode(to: "ada@example.com"))
        auth.clock.advance(by: 10 * 60)
        await #expect(throws: AuthError.codeRejected) {
            try await auth.registration.verify(email: "ada@example.com", code: code, password: AuthHarness.password)
        }
    }

    @Test func loginBeforeVerificationAnswersAsAWrongPasswordDoes() async throws {
        let auth = try AuthHarness()
        _ = try await auth.registration.signUp(email: "ada@example.com", password: AuthHarness.password)
        let before = auth.hasher.verificationCount
        await #expect(throws: AuthError.wrongCredentials) {
            try await auth.sessions.logIn(email: "ada@example.com", password: AuthHarness.password)
        }
        #expect(auth.hasher.verificationCount - before == 1, "the same work as a wrong password")
        #expect(auth.store.current == nil)
    }
}

@Suite("Auth: login throttling")
struct ThrottlingTests {
    /// Issue 24, defect 2: five wrong passwords from one client lock that client out of the address;
    /// the owner, from another client, logs in at once.
    @Test func fiveFailuresLockTheGuesserNotTheOwner() async throws {
        let auth = try AuthHarness()
        try await auth.verifiedUser()
        let guesser = auth.tokens(from: "203.0.113.9")
        for _ in 0..<5 {
            await #expect(throws: AuthError.wrongCredentials) {
                try await guesser.logIn(email: "ada@example.com", password: "not the password at all")
            }
        }
        await #expect(throws: AuthError.throttled(until: auth.clock.now().addingTimeInterval(60))) {
            try await guesser.logIn(email: "ada@example.com", password: AuthHarness.password)
        }
        #expect(try auth.count("SELECT COUNT(*) FROM auth_security_events WHERE kind = 'login-lockout'") == 1)
        #expect(auth.inbox.notices.last?.title.contains("203.0.113.9") == true, "the owner is told who was stopped")
        _ = try await auth.tokens(from: "198.51.100.7").logIn(email: "ada@example.com", password: AuthHarness.password)
        auth.clock.advance(by: 61)
        _ = try await guesser.logIn(email: "ada@example.com", password: AuthHarness.password)
    }

    /// Guesses from many clients at one address are bounded by a delay that grows to at most eight
    /// seconds — never a lock the owner cannot pass.
    @Test func guessesFromEverywhereOnlyDelayTheAddressByAFewSeconds() async throws {
        let auth = try AuthHarness()
        try await auth.verifiedUser()
        for client in 0..<5 {
            _ = try? await auth.tokens(from: "203.0.113.\(client)").logIn(email: "ada@example.com", password: "wrong wrong wrong wrong")
        }
        var delays: [TimeInterval] = []
        for client in 5..<12 {
            _ = try? await auth.tokens(from: "203.0.113.\(client)").logIn(email: "ada@example.com", password: "wrong wrong wrong wrong")
            let state = try await auth.repository.throttle(for: ThrottleKey.address("ada@example.com"))
            delays.append(state.lockedUntil.map { $0.timeIntervalSince(auth.clock.now()) } ?? 0)
            // Within the delay, every client is asked to wait a few seconds, the owner too…
            await #expect(throws: AuthError.loginDelayed(until: auth.clock.now().addingTimeInterval(delays.last ?? 0))) {
                try await auth.tokens(from: "198.51.100.7").logIn(email: "ada@example.com", password: AuthHarness.password)
            }
            auth.clock.advance(by: delays.last ?? 0)
        }
        #expect(delays == [1, 2, 4, 8, 8, 8, 8])
        // …and after it, the owner logs in.
        _ = try await auth.tokens(from: "198.51.100.7").logIn(email: "ada@example.com", password: AuthHarness.password)
    }

    /// A guesser that polls for the moment the address's delay ends pays for each poll with its own
    /// lock; a client that never failed there (the owner) is only asked to wait, and is not counted.
    @Test func pollingThroughTheAddressDelayLocksThePollerNotTheOwner() async throws {
        let auth = try AuthHarness()
        try await auth.verifiedUser()
        for client in 0..<6 {
            _ = try? await auth.tokens(from: "203.0.113.\(client)").logIn(email: "ada@example.com", password: "wrong wrong wrong wrong")
        }
        let poller = auth.tokens(from: "203.0.113.5")
        for _ in 0..<4 { _ = try? await poller.logIn(email: "ada@example.com", password: "wrong wrong wrong wrong") }
        await #expect(throws: AuthError.throttled(until: auth.clock.now().addingTimeInterval(60))) {
            try await poller.logIn(email: "ada@example.com", password: "wrong wrong wrong wrong")
        }
        let owner = ThrottleKey.guesser("ada@example.com", client: "198.51.100.7")
        for _ in 0..<3 { _ = try? await auth.tokens(from: "198.51.100.7").logIn(email: "ada@example.com", password: AuthHarness.password) }
        #expect(try await auth.repository.throttle(for: owner) == .fresh, "the owner's waits are not failures")
        auth.clock.advance(by: 8)
        _ = try await auth.tokens(from: "198.51.100.7").logIn(email: "ada@example.com", password: AuthHarness.password)
    }

    /// Past twenty wrong codes for an address in a day, from however many clients, each delays the
    /// next code there: a new code a minute cannot buy thousands of guesses a day.
    @Test func wrongCodesFromEverywhereAreBoundedPerAddress() async throws {
        let auth = try AuthHarness()
        try await auth.verifiedUser()
        for round in 0..<4 {
            auth.clock.advance(by: 61)
            _ = try await auth.passwordReset.request(email: "ada@example.com")
            for client in 0..<5 {
                _ = try? await PasswordReset(
                    repository: auth.repository, hasher: auth.hasher, secrets: auth.secrets, mail: auth.mail, clock: auth.clock,
                    origin: FixedOrigin(address: "203.0.\(round).\(client)")
                ).complete(email: "ada@example.com", code: "000001", newPassword: "a brand new passphrase 2026")
            }
        }
        let state = try await auth.repository.throttle(for: ThrottleKey.addressCodes("ada@example.com"))
        #expect(state.failures == 20 && state.lock(at: auth.clock.now()) == nil, "twenty are free")
        _ = try? await auth.passwordReset.complete(email: "ada@example.com", code: "000001", newPassword: "a brand new passphrase 2026")
        let delayed = try await auth.repository.throttle(for: ThrottleKey.addressCodes("ada@example.com"))
        #expect(delayed.lockedUntil == auth.clock.now().addingTimeInterval(60))
    }

    /// A reset proves the mailbox: wrong passwords, however many, never stand in its way.
    @Test func loginFailuresNeverBlockAReset() async throws {
        let auth = try AuthHarness()
        try await auth.verifiedUser()
        for _ in 0..<20 { _ = try? await auth.sessions.logIn(email: "ada@example.com", password: "wrong wrong wrong wrong") }
        auth.clock.advance(by: 61)
        _ = try await auth.passwordReset.request(email: "ada@example.com")
        let code = try #require(auth.mail.lastCode(to: "ada@example.com"))
        _ = try await auth.passwordReset.complete(email: "ada@example.com", code: code, newPassword: "a brand new passphrase 2026")
    }

    /// One client spraying many addresses is stopped after fifty failures, whatever the addresses.
    @Test func aClientSprayingManyAddressesIsLockedOut() async throws {
        let auth = try AuthHarness()
        try await auth.verifiedUser()
        let sprayer = auth.tokens(from: "203.0.113.66")
        for index in 0..<50 { _ = try? await sprayer.logIn(email: "user\(index)@example.com", password: "wrong wrong wrong wrong") }
        await #expect(throws: AuthError.throttled(until: auth.clock.now().addingTimeInterval(60))) {
            try await sprayer.logIn(email: "ada@example.com", password: AuthHarness.password)
        }
        _ = try await auth.tokens(from: "198.51.100.7").logIn(email: "ada@example.com", password: AuthHarness.password)
    }

    /// Several `moa-server`s share one database: another process may lock this client out while this
    /// one checks a password. Then even the right password is refused, and a wrong one counts nothing
    /// more (no second lockout, no second notice).
    @Test(arguments: [AuthHarness.password, "not the password at all"])
    func aClientLockedByAnotherProcessDuringTheCheckIsRefused(password: String) async throws {
        let auth = try AuthHarness()
        try await auth.verifiedUser()
        let until = auth.clock.now().addingTimeInterval(60)
        let key = ThrottleKey.guesser("ada@example.com", client: ThisTerminal.name)
        auth.hasher.duringVerification.withLock { $0 = auth.locking(key, until: until) }
        await #expect(throws: AuthError.throttled(until: until)) {
            try await auth.sessions.logIn(email: "ada@example.com", password: password)
        }
        #expect(auth.store.current == nil)
        #expect(try await auth.repository.throttle(for: key).lockouts == 1)
        #expect(try auth.count("SELECT COUNT(*) FROM auth_sessions") == 0)
    }

    @Test func eachLockoutDoublesTheDelayAndItSurvivesARestart() async throws {
        let auth = try AuthHarness()
        try await auth.verifiedUser()
        let key = ThrottleKey.guesser("ada@example.com", client: ThisTerminal.name)
        for round in 1...3 {
            for attempt in 0..<5 {
                // Past five failures at the address, each waits out the address's delay (eight seconds at most).
                if attempt > 0 { auth.clock.advance(by: 9) }
                _ = try? await auth.sessions.logIn(email: "ada@example.com", password: "wrong wrong wrong wrong")
            }
            let state = try await auth.repository.throttle(for: key)
            #expect(state.lockedUntil == auth.clock.now().addingTimeInterval(60 * pow(2, Double(round - 1))))
            auth.clock.advance(by: 60 * pow(2, Double(round - 1)) + 9)
        }
        // A new SessionManager (a new process) reads the stored state.
        let restarted = SessionManager(
            repository: auth.repository, hasher: auth.hasher, secrets: auth.secrets, store: auth.store, clock: auth.clock)
        for _ in 0..<5 {
            auth.clock.advance(by: 9)
            _ = try? await restarted.logIn(email: "ada@example.com", password: "wrong wrong wrong wrong")
        }
        #expect(try await auth.repository.throttle(for: key).lockouts == 4)
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
            let sent = try await auth.registration.signUp(email: lookAlike, password: AuthHarness.password)
            #expect(sent.email == "ada@example.com")
            auth.clock.advance(by: 61)
        }
        #expect(try auth.count("SELECT COUNT(*) FROM auth_users") == 1)
        #expect(auth.mail.mails.filter { $0.purpose == .verification }.count == 1, "only the first sign-up mailed a code")
        #expect(auth.mail.mails.filter { $0.subject.hasPrefix("Someone tried to sign up") }.count == 4, "the owner is told each time")
    }

    @Test func logInVerifyAndResetFindTheAccountWhateverFormIsTyped() async throws {
        let auth = try AuthHarness()
        _ = try await auth.registration.signUp(email: "ａｄａ@example.com", password: AuthHarness.password)
        #expect(auth.mail.mails.last?.to == "ada@example.com")
        try await auth.registration.verify(
            email: "ADA@example.com", code: auth.mail.lastCode(to: "ada@example.com") ?? "", password: AuthHarness.password)
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
