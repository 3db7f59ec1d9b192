import AuthDomain
import Foundation
import Persistence
import SharedKit
import Testing

// Auth's store (`AuthStore`) on both engines: what the sign-up, login and session use cases rely
// on, and what two `moa-server` processes sharing one PostgreSQL database need to hold.

private let start = Date(timeIntervalSince1970: 1_767_225_600) // 2026-01-01T00:00:00Z

private func user(_ id: String, _ email: String, verified: Date? = nil) -> UserRecord {
    UserRecord(id: UserID(id), email: email, passwordHash: "$scrypt$hash-of-\(id)", createdAt: start, verifiedAt: verified)
}

private func verification(_ id: String, digest: String = "code-digest", attempts: Int = 0) -> VerificationRecord {
    VerificationRecord(userID: UserID(id), codeDigest: digest, expiresAt: start.addingTimeInterval(600), attempts: attempts)
}

private func session(_ id: String, family: String, user: String, at date: Date = start) -> SessionRecord {
    SessionRecord(
        id: id, familyID: family, userID: UserID(user), accessDigest: "access-\(id)", accessExpiresAt: date.addingTimeInterval(900),
        refreshDigest: "refresh-\(id)", refreshExpiresAt: date.addingTimeInterval(14 * 86_400), createdAt: date)
}

private func event(_ kind: SecurityEvent.Kind, _ user: String?, _ email: String, at date: Date = start) -> SecurityEvent {
    SecurityEvent(userID: user.map { UserID($0) }, email: email, kind: kind, at: date)
}

/// What another feature's work in the same transaction throws (an inbox notice that cannot be published).
private struct NoticeRefused: Error, UserFacingError, Equatable {
    var message: String { "The notice could not be published." }
    var exitStatus: SharedKit.ExitStatus { .unavailable }
}

/// What a person or an operator reads of an error.
private func text(of error: any Error) -> String {
    (error as? any UserFacingError)?.message ?? String(describing: error)
}

@Suite("Auth store contract")
struct AuthStoreContractTests {
    // MARK: Users and verifications

    @Test(arguments: Engine.allCases)
    func aCreatedUserIsFoundByIdAndByAddressWhateverItsCase(_ engine: Engine) async throws {
        try await withStores(engine) { stores in
            let auth = stores.auth
            try await auth.createUser(user("u1", "Ada@example.com"), verification: verification("u1"))

            #expect(try await auth.user(email: "Ada@example.com") == user("u1", "Ada@example.com"))
            #expect(try await auth.user(email: "ada@EXAMPLE.com")?.id == UserID("u1"))
            #expect(try await auth.user(id: UserID("u1"))?.email == "Ada@example.com")
            #expect(try await auth.user(email: "bob@example.com") == nil)
            #expect(try await auth.user(email: "ada@example.co") == nil)
            #expect(try await auth.verification(for: UserID("u1")) == verification("u1"))
        }
    }

    @Test(arguments: Engine.allCases)
    func aSecondSignUpWithTheSameAddressIsEmailTakenAndLeavesNothingBehind(_ engine: Engine) async throws {
        try await withStores(engine) { stores in
            let auth = stores.auth
            try await auth.createUser(user("u1", "ada@example.com"), verification: verification("u1"))

            await #expect(throws: AuthError.emailTaken("ADA@example.com")) {
                try await auth.createUser(user("u2", "ADA@example.com"), verification: verification("u2", digest: "other"))
            }
            #expect(try await auth.user(id: UserID("u2")) == nil)
            #expect(try await auth.verification(for: UserID("u2")) == nil)
            #expect(try await auth.verification(for: UserID("u1")) == verification("u1"), "the first sign-up's code stays")
            #expect(try await auth.user(email: "ada@example.com")?.id == UserID("u1"))
        }
    }

    @Test(arguments: Engine.allCases)
    func aUserAndItsVerificationAreCreatedTogetherOrNotAtAll(_ engine: Engine) async throws {
        try await withStores(engine) { stores in
            // The verification names a user that is not the one inserted: the foreign key fails, the user is rolled back.
            do {
                try await stores.auth.createUser(user("u1", "ada@example.com"), verification: verification("nobody"))
                Issue.record("a verification of no user was stored")
            } catch {
                #expect(!(error is AuthError), "a database refusal, not \(error)")
            }
            #expect(try await stores.auth.user(email: "ada@example.com") == nil)
            // The address is still free.
            try await stores.auth.createUser(user("u2", "ada@example.com"), verification: verification("u2"))
        }
    }

    @Test(arguments: Engine.allCases)
    func verificationsAreReplacedCountedAndDeleted(_ engine: Engine) async throws {
        try await withStores(engine) { stores in
            let auth = stores.auth
            try await auth.createUser(user("u1", "ada@example.com"), verification: verification("u1"))

            #expect(try await auth.recordWrongCode(for: UserID("u1")) == 1)
            #expect(try await auth.recordWrongCode(for: UserID("u1")) == 2)
            #expect(try await auth.verification(for: UserID("u1"))?.attempts == 2)

            try await auth.saveVerification(verification("u1", digest: "new-digest"))
            #expect(try await auth.verification(for: UserID("u1")) == verification("u1", digest: "new-digest"))

            try await auth.deleteVerification(for: UserID("u1"))
            #expect(try await auth.verification(for: UserID("u1")) == nil)
            await #expect(throws: AuthError.noPendingVerification("ada@example.com")) {
                try await auth.recordWrongCode(for: UserID("u1"))
            }
            await #expect(throws: AuthError.noPendingVerification("ghost")) {
                try await auth.recordWrongCode(for: UserID("ghost"))
            }
        }
    }

    @Test(arguments: Engine.allCases)
    func verifyingAndRehashingUpdateTheUserAndOnlyUnverifiedUsersCanBeUndone(_ engine: Engine) async throws {
        try await withStores(engine) { stores in
            let auth = stores.auth
            try await auth.createUser(user("u1", "ada@example.com"), verification: verification("u1"))
            try await auth.createUser(user("u2", "bob@example.com"), verification: verification("u2"))

            try await auth.markVerified(UserID("u1"), at: start.addingTimeInterval(60))
            try await auth.updatePasswordHash(UserID("u1"), to: "$scrypt$stronger")
            let verified = try await auth.user(id: UserID("u1"))
            #expect(verified?.verifiedAt == start.addingTimeInterval(60))
            #expect(verified?.passwordHash == "$scrypt$stronger")

            try await auth.deleteUnverifiedUser(UserID("u1"))
            try await auth.deleteUnverifiedUser(UserID("u2"))
            #expect(try await auth.user(id: UserID("u1")) != nil)
            #expect(try await auth.user(id: UserID("u2")) == nil)
            #expect(try await auth.verification(for: UserID("u2")) == nil) // cascaded
            try await auth.createUser(user("u3", "bob@example.com"), verification: verification("u3"))
        }
    }

    // MARK: Sessions

    @Test(arguments: Engine.allCases)
    func sessionsAreFoundByEitherDigestWithTheirDates(_ engine: Engine) async throws {
        try await withStores(engine) { stores in
            let auth = stores.auth
            try await auth.createUser(user("u1", "ada@example.com"), verification: verification("u1"))
            try await auth.insertSession(session("s1", family: "f1", user: "u1"))
            try await auth.insertSession(session("s2", family: "f2", user: "u1", at: start.addingTimeInterval(3600.5)))

            #expect(try await auth.session(accessDigest: "access-s1") == session("s1", family: "f1", user: "u1"))
            #expect(
                try await auth.session(refreshDigest: "refresh-s2")
                    == session("s2", family: "f2", user: "u1", at: start.addingTimeInterval(3600.5)))
            #expect(try await auth.session(accessDigest: "refresh-s1") == nil)
            #expect(try await auth.session(refreshDigest: "access-s1") == nil)
        }
    }

    @Test(arguments: Engine.allCases)
    func aDatabaseFailureNamesTheConstraintButNoValue(_ engine: Engine) async throws {
        try await withStores(engine) { stores in
            try await stores.auth.createUser(user("u1", "ada@example.com"), verification: verification("u1"))
            try await stores.auth.insertSession(session("s1", family: "f1", user: "u1"))
            let clash = SessionRecord(
                id: "s9", familyID: "f9", userID: UserID("u1"), accessDigest: "access-s1", accessExpiresAt: start,
                refreshDigest: "fresh-digest", refreshExpiresAt: start, createdAt: start)
            do {
                try await stores.auth.insertSession(clash)
                Issue.record("a duplicate access digest was accepted")
            } catch {
                #expect(text(of: error).contains("access_digest"))
                #expect(!text(of: error).contains("access-s1") && !text(of: error).contains("fresh-digest"))
            }
            #expect(try await stores.auth.session(refreshDigest: "fresh-digest") == nil)
        }
    }

    @Test(arguments: Engine.allCases)
    func aRefreshTokenRotatesOnceAndNeverAgain(_ engine: Engine) async throws {
        try await withStores(engine) { stores in
            let auth = stores.auth
            try await auth.createUser(user("u1", "ada@example.com"), verification: verification("u1"))
            try await auth.insertSession(session("s1", family: "f1", user: "u1"))
            let rotatedAt = start.addingTimeInterval(1000)

            #expect(try await auth.rotate("s1", to: session("s2", family: "f1", user: "u1", at: rotatedAt), at: rotatedAt))
            #expect(try await auth.session(refreshDigest: "refresh-s1")?.rotatedAt == rotatedAt)
            #expect(try await auth.session(refreshDigest: "refresh-s2")?.familyID == "f1")

            #expect(try await !auth.rotate("s1", to: session("s3", family: "f1", user: "u1", at: rotatedAt), at: rotatedAt))
            #expect(try await auth.session(refreshDigest: "refresh-s3") == nil)

            try await auth.revokeFamily("f1", at: rotatedAt)
            #expect(try await !auth.rotate("s2", to: session("s4", family: "f1", user: "u1", at: rotatedAt), at: rotatedAt))
            #expect(try await auth.session(refreshDigest: "refresh-s4") == nil)
            #expect(try await !auth.rotate("nothing", to: session("s5", family: "f1", user: "u1", at: rotatedAt), at: rotatedAt))
            #expect(try await auth.session(refreshDigest: "refresh-s5") == nil)
        }
    }

    @Test(arguments: Engine.allCases)
    func revokingAFamilyOrAllSessionsKeepsEarlierRevocations(_ engine: Engine) async throws {
        try await withStores(engine) { stores in
            let auth = stores.auth
            try await auth.createUser(user("u1", "ada@example.com"), verification: verification("u1"))
            try await auth.createUser(user("u2", "bob@example.com"), verification: verification("u2"))
            for (id, family, owner) in [("a1", "fa", "u1"), ("a2", "fa", "u1"), ("b1", "fb", "u1"), ("c1", "fc", "u2")] {
                try await auth.insertSession(session(id, family: family, user: owner))
            }
            let first = start.addingTimeInterval(10)
            let second = start.addingTimeInterval(20)

            try await auth.revokeFamily("fa", at: first)
            #expect(try await auth.session(accessDigest: "access-a1")?.revokedAt == first)
            #expect(try await auth.session(accessDigest: "access-a2")?.revokedAt == first)
            #expect(try await auth.session(accessDigest: "access-b1")?.revokedAt == nil)

            try await auth.revokeAllSessions(of: UserID("u1"), at: second)
            #expect(try await auth.session(accessDigest: "access-a1")?.revokedAt == first)
            #expect(try await auth.session(accessDigest: "access-b1")?.revokedAt == second)
            #expect(try await auth.session(accessDigest: "access-c1")?.revokedAt == nil)
        }
    }

    // MARK: Throttles

    @Test(arguments: Engine.allCases)
    func throttlesRoundTripPerLowerCasedAddress(_ engine: Engine) async throws {
        try await withStores(engine) { stores in
            let auth = stores.auth
            #expect(try await auth.throttle(for: "ada@example.com") == .fresh)

            let counting = ThrottleState(failures: 2, windowStart: start, lockedUntil: nil, lockouts: 0)
            let locked = ThrottleState(failures: 0, windowStart: nil, lockedUntil: start.addingTimeInterval(60), lockouts: 1)
            let first = try await auth.updateThrottle(for: "ada@example.com") { _ in counting }
            #expect(first == ThrottleUpdate(before: .fresh, after: counting))
            #expect(try await auth.throttle(for: "ADA@example.com") == counting)
            let second = try await auth.updateThrottle(for: "Ada@Example.com") { _ in locked }
            #expect(second == ThrottleUpdate(before: counting, after: locked))
            #expect(try await auth.throttle(for: "ada@example.com") == locked)
            #expect(try await auth.throttle(for: "bob@example.com") == .fresh)

            let cleared = try await auth.updateThrottle(for: "ada@example.com") { _ in .fresh }
            #expect(cleared == ThrottleUpdate(before: locked, after: .fresh))
            #expect(try await auth.throttle(for: "ada@example.com") == .fresh)
        }
    }

    /// Several `moa-server`s on one database count failed logins in one place: each change is read,
    /// applied and stored in one transaction, so failures counted at once are each counted.
    @Test(arguments: Engine.allCases)
    func failuresCountedAtOnceAreEachCounted(_ engine: Engine) async throws {
        try await withStores(engine) { stores in
            let auth = stores.auth
            let befores = try await withThrowingTaskGroup(of: Int.self) { group in
                for _ in 0..<12 {
                    group.addTask {
                        try await auth.updateThrottle(for: "ada@example.com") { state in
                            var state = state
                            state.failures += 1
                            state.windowStart = state.windowStart ?? start
                            return state
                        }.before.failures
                    }
                }
                return try await group.reduce(into: [Int]()) { $0.append($1) }
            }
            #expect(befores.sorted() == Array(0..<12), "each change saw the one before it")
            #expect(
                try await auth.throttle(for: "ada@example.com")
                    == ThrottleState(failures: 12, windowStart: start, lockedUntil: nil, lockouts: 0))
        }
    }

    // MARK: Work in one transaction

    @Test(arguments: Engine.allCases)
    func aLoginsSessionCommitsWithItsEventAndTheWorkAlongsideOrNotAtAll(_ engine: Engine) async throws {
        try await withStores(engine) { stores in
            let auth = stores.auth
            try await auth.createUser(user("u1", "ada@example.com", verified: start), verification: verification("u1"))
            try await auth.createUser(user("u2", "bob@example.com"), verification: verification("u2"))

            await #expect(throws: NoticeRefused()) {
                try await auth.insertSession(
                    session("s1", family: "f1", user: "u1"), recording: event(.login, "u1", "ada@example.com"), clearingWrongPins: true,
                    alongside: { _ in throw NoticeRefused() })
            }
            #expect(try await auth.session(accessDigest: "access-s1") == nil)

            // The work alongside writes in the same transaction (here: another user's erasure).
            try await auth.insertSession(
                session("s1", family: "f1", user: "u1"), recording: event(.login, "u1", "ada@example.com"), clearingWrongPins: true,
                alongside: { try auth.eraseUser(UserID("u2"), email: "bob@example.com", in: $0) })
            #expect(try await auth.session(accessDigest: "access-s1") == session("s1", family: "f1", user: "u1"))
            #expect(try await auth.user(id: UserID("u2")) == nil)
        }
    }

    @Test(arguments: Engine.allCases)
    func anEventIsRecordedWithTheWorkAlongsideOrNotAtAll(_ engine: Engine) async throws {
        try await withStores(engine) { stores in
            let auth = stores.auth
            try await auth.createUser(user("u1", "ada@example.com"), verification: verification("u1"))
            try await auth.record(event(.loginLockout, nil, "ghost@example.com"))

            await #expect(throws: NoticeRefused()) {
                try await auth.record(event(.refreshTokenReuse, "u1", "ada@example.com")) { transaction in
                    try auth.eraseUser(UserID("u1"), email: "ada@example.com", in: transaction)
                    throw NoticeRefused()
                }
            }
            #expect(try await auth.user(id: UserID("u1")) != nil, "the erasure alongside was rolled back")

            try await auth.record(event(.refreshTokenReuse, "u1", "ada@example.com")) { transaction in
                try auth.eraseUser(UserID("u1"), email: "ada@example.com", in: transaction)
            }
            #expect(try await auth.user(id: UserID("u1")) == nil)
        }
    }

    @Test(arguments: Engine.allCases)
    func replacingThePasswordEndsEverySessionDropsTheCodeAndStartsOneSession(_ engine: Engine) async throws {
        try await withStores(engine) { stores in
            let auth = stores.auth
            try await auth.createUser(user("u1", "ada@example.com", verified: start), verification: verification("u1"))
            try await auth.createUser(user("u2", "bob@example.com", verified: start), verification: verification("u2"))
            for (id, family, owner) in [("a1", "fa", "u1"), ("b1", "fb", "u1"), ("c1", "fc", "u2")] {
                try await auth.insertSession(session(id, family: family, user: owner))
            }
            let first = start.addingTimeInterval(10)
            let second = start.addingTimeInterval(20)
            try await auth.revokeFamily("fb", at: first)

            try await auth.replacePassword(
                of: UserID("u1"), with: "$scrypt$new", at: second, newSession: session("n1", family: "fn", user: "u1", at: second),
                event: event(.passwordChanged, "u1", "ada@example.com", at: second), alongside: { _ in })
            #expect(try await auth.user(id: UserID("u1"))?.passwordHash == "$scrypt$new")
            #expect(try await auth.session(accessDigest: "access-a1")?.revokedAt == second)
            #expect(try await auth.session(accessDigest: "access-b1")?.revokedAt == first)
            #expect(try await auth.session(accessDigest: "access-c1")?.revokedAt == nil, "another user's session lives on")
            #expect(try await auth.session(accessDigest: "access-n1") == session("n1", family: "fn", user: "u1", at: second))
            #expect(try await auth.verification(for: UserID("u1")) == nil)
            #expect(try await auth.verification(for: UserID("u2")) != nil)

            // A reset whose notice fails changes nothing.
            let third = start.addingTimeInterval(30)
            await #expect(throws: NoticeRefused()) {
                try await auth.replacePassword(
                    of: UserID("u1"), with: "$scrypt$other", at: third, newSession: session("n2", family: "fo", user: "u1", at: third),
                    event: event(.passwordReset, "u1", "ada@example.com", at: third), alongside: { _ in throw NoticeRefused() })
            }
            #expect(try await auth.user(id: UserID("u1"))?.passwordHash == "$scrypt$new")
            #expect(try await auth.session(accessDigest: "access-n1")?.revokedAt == nil)
            #expect(try await auth.session(accessDigest: "access-n2") == nil)

            // Without a new session (a reset by mail): every session ends.
            try await auth.replacePassword(
                of: UserID("u1"), with: "$scrypt$reset", at: third, newSession: nil,
                event: event(.passwordReset, "u1", "ada@example.com", at: third), alongside: { _ in })
            #expect(try await auth.session(accessDigest: "access-n1")?.revokedAt == third)
            #expect(try await auth.user(id: UserID("u1"))?.passwordHash == "$scrypt$reset")
        }
    }

    @Test(arguments: Engine.allCases)
    func erasingAUserRemovesEverythingAuthKeepsAndFreesTheAddress(_ engine: Engine) async throws {
        try await withStores(engine) { stores in
            let auth = stores.auth
            try await auth.createUser(user("u1", "ada@example.com", verified: start), verification: verification("u1"))
            try await auth.createUser(user("u2", "bob@example.com", verified: start), verification: verification("u2"))
            try await auth.insertSession(session("a1", family: "fa", user: "u1"))
            try await auth.insertSession(session("b1", family: "fb", user: "u2"))
            let counting = ThrottleState(failures: 2, windowStart: start, lockedUntil: nil, lockouts: 0)
            _ = try await auth.updateThrottle(for: "ada@example.com") { _ in counting }
            _ = try await auth.updateThrottle(for: "bob@example.com") { _ in counting }
            try await auth.record(event(.login, "u1", "ada@example.com"))

            // The erasure is the caller's transaction: a failure after it undoes it.
            await #expect(throws: NoticeRefused()) {
                try await stores.unitOfWork.perform { transaction in
                    try auth.eraseUser(UserID("u1"), email: "Ada@Example.com", in: transaction)
                    throw NoticeRefused()
                }
            }
            #expect(try await auth.user(id: UserID("u1")) != nil)
            #expect(try await auth.session(accessDigest: "access-a1") != nil)

            try await stores.unitOfWork.perform { transaction in
                try auth.eraseUser(UserID("u1"), email: "Ada@Example.com", in: transaction)
            }
            #expect(try await auth.user(id: UserID("u1")) == nil)
            #expect(try await auth.user(email: "ada@example.com") == nil)
            #expect(try await auth.session(accessDigest: "access-a1") == nil)
            #expect(try await auth.verification(for: UserID("u1")) == nil)
            #expect(try await auth.throttle(for: "ada@example.com") == .fresh)
            // Bob's records stay.
            #expect(try await auth.user(id: UserID("u2")) != nil)
            #expect(try await auth.session(accessDigest: "access-b1") != nil)
            #expect(try await auth.verification(for: UserID("u2")) != nil)
            #expect(try await auth.throttle(for: "bob@example.com") == counting)

            try await auth.createUser(user("u3", "ada@example.com"), verification: verification("u3"))
            #expect(try await auth.user(email: "ada@example.com")?.id == UserID("u3"))
        }
    }

    // MARK: Two servers at once

    @Test(arguments: Engine.allCases)
    func oneRefreshTokenPresentedSeveralTimesAtOnceRotatesOnce(_ engine: Engine) async throws {
        try await withStores(engine) { stores in
            let auth = stores.auth
            try await auth.createUser(user("u1", "ada@example.com", verified: start), verification: verification("u1"))
            let at = start.addingTimeInterval(1000)
            for round in 0..<5 {
                let current = session("r\(round)", family: "f\(round)", user: "u1")
                try await auth.insertSession(current)
                let outcomes = try await withThrowingTaskGroup(of: (String, Bool).self) { group in
                    for contender in 0..<4 {
                        let next = session("r\(round)-next\(contender)", family: "f\(round)", user: "u1", at: at)
                        group.addTask { (next.id, try await auth.rotate(current.id, to: next, at: at)) }
                    }
                    return try await group.reduce(into: [(String, Bool)]()) { $0.append($1) }
                }
                #expect(outcomes.filter(\.1).count == 1, "round \(round): \(outcomes)")
                for (id, rotated) in outcomes {
                    #expect(try await (auth.session(refreshDigest: "refresh-\(id)") != nil) == rotated)
                }
                #expect(try await auth.session(refreshDigest: current.refreshDigest)?.rotatedAt == at)
            }
        }
    }

    @Test(arguments: Engine.allCases)
    func aRevocationRacingARotationLeavesNoLiveSessionInTheFamily(_ engine: Engine) async throws {
        try await withStores(engine) { stores in
            let auth = stores.auth
            try await auth.createUser(user("u1", "ada@example.com", verified: start), verification: verification("u1"))
            let at = start.addingTimeInterval(1000)
            for round in 0..<6 {
                let current = session("r\(round)", family: "f\(round)", user: "u1")
                let next = session("r\(round)-next", family: "f\(round)", user: "u1", at: at)
                try await auth.insertSession(current)
                async let rotated = auth.rotate(current.id, to: next, at: at)
                async let revoked: Void = auth.revokeFamily(current.familyID, at: at)
                let didRotate = try await rotated
                try await revoked

                let stored = try await auth.session(refreshDigest: next.refreshDigest)
                #expect((stored != nil) == didRotate, "round \(round)")
                #expect(stored == nil || stored?.revokedAt == at, "round \(round): the rotated session outlived the revocation")
                #expect(try await auth.session(refreshDigest: current.refreshDigest)?.revokedAt == at)
            }
        }
    }

    @Test(arguments: Engine.allCases)
    func wrongCodesEnteredAtOnceAreEachCounted(_ engine: Engine) async throws {
        try await withStores(engine) { stores in
            let auth = stores.auth
            try await auth.createUser(user("u1", "ada@example.com"), verification: verification("u1"))
            let counts = try await withThrowingTaskGroup(of: Int.self) { group in
                for _ in 0..<8 { group.addTask { try await auth.recordWrongCode(for: UserID("u1")) } }
                return try await group.reduce(into: [Int]()) { $0.append($1) }
            }
            #expect(counts.sorted() == Array(1...8), "each attempt sees its own count")
            #expect(try await auth.verification(for: UserID("u1"))?.attempts == 8)
        }
    }

    @Test(arguments: Engine.allCases)
    func signUpsWithOneAddressAtOnceCreateOneAccount(_ engine: Engine) async throws {
        try await withStores(engine) { stores in
            let auth = stores.auth
            let addresses = ["ada@example.com", "Ada@example.com", "ADA@EXAMPLE.COM", "ada@Example.com"]
            let outcomes = try await withThrowingTaskGroup(of: (String, Bool).self) { group in
                for (index, address) in addresses.enumerated() {
                    group.addTask {
                        do {
                            try await auth.createUser(user("u\(index)", address), verification: verification("u\(index)"))
                            return ("u\(index)", true)
                        } catch AuthError.emailTaken(let taken) where taken == address {
                            return ("u\(index)", false)
                        }
                    }
                }
                return try await group.reduce(into: [(String, Bool)]()) { $0.append($1) }
            }
            let created = outcomes.filter(\.1).map(\.0)
            #expect(created.count == 1, "\(outcomes)")
            let owner = try await auth.user(email: "ada@example.com")
            #expect(owner.map { [$0.id.rawValue] } == created)
            for (id, _) in outcomes where !created.contains(id) {
                #expect(try await auth.user(id: UserID(id)) == nil)
                #expect(try await auth.verification(for: UserID(id)) == nil)
            }
        }
    }
}
