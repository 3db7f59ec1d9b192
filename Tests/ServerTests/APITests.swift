import AuthServer
import Foundation
import HTTPTypes
import Testing

/// The JSON API of docs/api/openapi.yaml, served in process: what two users on two machines do,
/// what the tokens allow, and what nobody can do to someone else's money.
@Suite("moa-server · API")
struct APITests {
    @Test func twoUsersSendMoneyAndTheReceiverIsTold() async throws {
        try await APIHarness().run { api in
            let ada = try await api.user("ada@moa.example")
            let bo = try await api.user("bo@moa.example")
            let adas = try await api.account(ada)
            let bos = try await api.account(bo, name: "Bo")

            let deposit = try await api.send(
                .post, "/v1/accounts/\(adas)/deposits", json: ["amount": "2,500,000", "memo": "월급"], token: ada.access)
            #expect(deposit.status == .created)
            #expect((deposit.object["balance_after"] as? [String: Any])?["minor_units"] as? Int == 2_500_000)

            let sent = try await api.send(
                .post, "/v1/transfers", json: ["from": adas, "to": bos, "amount": "300,000", "memo": "rent"], token: ada.access,
                headers: [HTTPField.Name("Idempotency-Key")!: "rent-1"])
            #expect(sent.status == .created, "\(sent.text)")
            #expect(sent.object["replayed"] as? Bool == false)
            #expect((sent.object["from_balance_after"] as? [String: Any])?["minor_units"] as? Int == 2_200_000)

            // The same key and request again: the first transfer, nothing posted.
            let again = try await api.send(
                .post, "/v1/transfers", json: ["from": adas, "to": bos, "amount": "300,000", "memo": "rent"], token: ada.access,
                headers: [HTTPField.Name("Idempotency-Key")!: "rent-1"])
            #expect(again.status == .ok)
            #expect(again.object["replayed"] as? Bool == true)
            #expect(again.object["id"] as? String == sent.object["id"] as? String)
            // The same key, another amount: refused, nothing posted.
            let reused = try await api.send(
                .post, "/v1/transfers", json: ["from": adas, "to": bos, "amount": "1", "memo": "rent"], token: ada.access,
                headers: [HTTPField.Name("Idempotency-Key")!: "rent-1"])
            #expect(reused.status == .unprocessableContent)
            #expect(reused.problem == "idempotency-key-reused")

            #expect(try await api.balance(ada, adas) == 2_200_000)
            #expect(try await api.balance(bo, bos) == 300_000)
            let inbox = try await api.send(.get, "/v1/inbox?unread=true", token: bo.access)
            let kinds = (inbox.object["notices"] as? [[String: Any]] ?? []).compactMap { $0["kind"] as? String }
            #expect(kinds.contains("money-received"))
            #expect(inbox.object["unread_count"] as? Int == kinds.count)
            let history = try await api.send(.get, "/v1/accounts/\(bos)/history", token: bo.access)
            let entries = history.object["entries"] as? [[String: Any]] ?? []
            #expect(entries.map { $0["kind"] as? String } == ["transfer-in"])
            #expect(entries.first?["counterparty"] as? String == adas)
        }
    }

    @Test func moneyRulesHoldOnTheServer() async throws {
        try await APIHarness().run { api in
            let ada = try await api.user("ada@moa.example")
            let bo = try await api.user("bo@moa.example")
            let adas = try await api.account(ada)
            let bos = try await api.account(bo)
            let key: HTTPFields = [HTTPField.Name("Idempotency-Key")!: "k1"]
            func send(_ amount: String) async throws -> APIHarness.Reply {
                try await api.send(
                    .post, "/v1/transfers", json: ["from": adas, "to": bos, "amount": amount], token: ada.access, headers: key)
            }
            #expect(try await send("1,000").problem == "insufficient-funds")
            _ = try await api.send(.post, "/v1/accounts/\(adas)/deposits", json: ["amount": "9,000,000"], token: ada.access)
            let overLimit = try await send("6,000,000")
            #expect(overLimit.status == .conflict)
            #expect(overLimit.problem == "limit-exceeded")
            #expect(overLimit.object["exit_status"] as? Int == 1)
            for bad in ["12.5", "-5", "1e3", "0", "abc", "100000000000000"] {
                let reply = try await send(bad)
                #expect(reply.status == .unprocessableContent, "\(bad): \(reply.text)")
                #expect(reply.problem == "validation", "\(bad)")
                #expect(reply.object["exit_status"] as? Int == 65)
            }
            // Lowering the limit on the server binds the next send.
            let limit = try await api.send(
                .put, "/v1/settings/transfer.per-transfer-limit", json: ["value": "1,000"], token: ada.access)
            #expect(limit.status == .ok)
            #expect(limit.object["source"] as? String == "user")
            #expect(try await send("1,001").problem == "limit-exceeded")
            #expect(try await api.balance(ada, adas) == 9_000_000)
            #expect(try await api.balance(bo, bos) == 0)
            // A withdrawal never goes below zero.
            let overdraw = try await api.send(.post, "/v1/accounts/\(adas)/withdrawals", json: ["amount": "9,000,001"], token: ada.access)
            #expect(overdraw.problem == "insufficient-funds")
        }
    }

    /// Issue 15, item 8: for each endpoint that takes an account, another user's is 404 — exactly what
    /// an account nobody has gets — and nothing changes.
    @Test func anotherUsersAccountIsNotFoundOnEveryEndpoint() async throws {
        try await APIHarness().run { api in
            let ada = try await api.user("ada@moa.example")
            let eve = try await api.user("eve@moa.example")
            let adas = try await api.account(ada)
            let eves = try await api.account(eve)
            _ = try await api.send(.post, "/v1/accounts/\(adas)/deposits", json: ["amount": "50,000"], token: ada.access)
            let nobodys = "110-0000-0000-7" // well-formed, nobody's
            let key: HTTPFields = [HTTPField.Name("Idempotency-Key")!: "steal"]
            for target in [adas, nobodys] {
                let attempts: [(HTTPRequest.Method, String, [String: Any]?, HTTPFields)] = [
                    (.get, "/v1/accounts/\(target)", nil, [:]),
                    (.patch, "/v1/accounts/\(target)", ["name": "mine now"], [:]),
                    (.post, "/v1/accounts/\(target)/close", nil, [:]),
                    (.post, "/v1/accounts/\(target)/deposits", ["amount": "1"], [:]),
                    (.post, "/v1/accounts/\(target)/withdrawals", ["amount": "1"], [:]),
                    (.get, "/v1/accounts/\(target)/history", nil, [:]),
                    (.post, "/v1/transfers", ["from": target, "to": eves, "amount": "1"], key),
                ]
                for (method, path, json, headers) in attempts {
                    let reply = try await api.send(method, path, json: json, token: eve.access, headers: headers)
                    #expect(reply.status == .notFound, "\(method) \(path) → \(reply.status) \(reply.text)")
                    #expect(reply.problem == "not-found", "\(method) \(path)")
                    #expect(reply.object["exit_status"] as? Int == 69)
                    if target == adas {
                        #expect(!reply.text.contains("mine now") && !reply.text.contains("50,000") && !reply.text.contains("생활비"))
                    }
                }
            }
            // Nothing changed: Ada's account as she sees it, and nothing sent.
            let account = try await api.send(.get, "/v1/accounts/\(adas)", token: ada.access)
            #expect(account.object["name"] as? String == "생활비")
            #expect(account.object["closed"] as? Bool == false)
            #expect(try await api.balance(ada, adas) == 50_000)
            #expect(try await api.balance(eve, eves) == 0)
            #expect((try await api.send(.get, "/v1/accounts", token: eve.access)).array.count == 1)
            // Eve's own transfers, notices and favourites hold nothing of Ada's either.
            let transfers = try await api.send(.get, "/v1/transfers", token: eve.access)
            #expect((transfers.object["transfers"] as? [Any])?.isEmpty == true)

            // Ada's transfer, notice and favourite: 404 for Eve, like ids nobody has.
            let sent = try await api.send(
                .post, "/v1/transfers", json: ["from": adas, "to": eves, "amount": "1,000"], token: ada.access,
                headers: [HTTPField.Name("Idempotency-Key")!: "to-eve"])
            let transferID = try #require(sent.object["id"] as? String)
            _ = try await api.send(.post, "/v1/recipients", json: ["number": eves, "alias": "eve"], token: ada.access)
            let adasNotices = try await api.send(.get, "/v1/inbox", token: ada.access)
            let noticeID = try #require((adasNotices.object["notices"] as? [[String: Any]])?.first?["id"] as? Int)
            for (method, path) in [
                (HTTPRequest.Method.get, "/v1/transfers/\(transferID)"), (.post, "/v1/inbox/\(noticeID)/read"),
                (.delete, "/v1/recipients/eve"),
            ] {
                let reply = try await api.send(method, path, token: eve.access)
                #expect(reply.status == .notFound, "\(method) \(path) → \(reply.status) \(reply.text)")
                #expect(!reply.text.contains(adas))
            }
            #expect(try await api.send(.get, "/v1/transfers/\(transferID)", token: ada.access).status == .ok)
            #expect(try await api.send(.get, "/v1/recipients", token: ada.access).text.contains("eve"))
            let stillUnread = try await api.send(.get, "/v1/inbox?unread=true", token: ada.access)
            #expect((stillUnread.object["notices"] as? [[String: Any]] ?? []).contains { $0["id"] as? Int == noticeID })
        }
    }

    @Test func withoutALiveAccessTokenEveryUsersRouteIs401() async throws {
        try await APIHarness().run { api in
            let ada = try await api.user("ada@moa.example")
            let routes: [(HTTPRequest.Method, String)] = [
                (.get, "/v1/accounts"), (.get, "/v1/transfers"), (.get, "/v1/inbox"), (.get, "/v1/settings"),
                (.get, "/v1/auth/session"), (.get, "/v1/recipients"), (.get, "/v1/archive/tickets"), (.put, "/v1/archive/preferences"),
                (.delete, "/v1/archive/tickets/5653ca00"),
            ]
            for (method, path) in routes {
                for token in [nil, "not-a-token", String(repeating: "A", count: 43), "\u{1B}[31m"] {
                    let reply = try await api.send(method, path, token: token)
                    #expect(reply.status == .unauthorized, "\(path) with \(token ?? "no token")")
                    #expect(reply.problem == "unauthenticated")
                    #expect(reply.object["exit_status"] as? Int == 77)
                    #expect(reply.headers[.wwwAuthenticate] == (token == nil ? "Bearer" : #"Bearer error="invalid_token""#))
                }
            }
            #expect(try await api.send(.get, "/v1/auth/session", token: ada.access).object["email"] as? String == "ada@moa.example")
            // Auth's open operations take no token; a path nobody serves is "not found" with or without one.
            for path in AuthHandlers.openPaths {
                let reply = try await api.send(.post, path, json: [:])
                #expect(reply.status != .unauthorized, "\(path) → \(reply.status)")
            }
            #expect(try await api.send(.get, "/v1/archive/nothing").status == .notFound)
            // Empty segments change nothing: the router reads `//v1//archive/tickets` as the route.
            #expect(try await api.send(.get, "//v1//archive/tickets").status == .unauthorized)
            #expect(try await api.send(.post, "//v1/archive//tickets", json: ["title": 1]).status == .unauthorized)
        }
    }

    @Test func aServedPathWithAnotherMethodIs405WithAllow() async throws {
        try await APIHarness().run { api in
            let ada = try await api.user("ada@moa.example")
            for (method, path, allow) in [
                (HTTPRequest.Method.delete, "/v1/accounts", "GET, POST"), (.put, "/healthz", "GET"),
                (.get, "/v1/accounts/110-0000-0000-7/deposits", "POST"), (.post, "/v1/settings/transfer.daily-limit", "DELETE, GET, PUT"),
            ] {
                let reply = try await api.send(method, path, token: ada.access)
                #expect(reply.status == .methodNotAllowed, "\(method) \(path) → \(reply.status)")
                #expect(reply.problem == "method-not-allowed")
                #expect(reply.headers[.allow] == allow, "\(path)")
                #expect(reply.object["exit_status"] as? Int == 64)
            }
        }
    }

    /// A route that acts for a user answers 401 before it reads anything else; with a token, a
    /// parameter the route cannot take is 400 `invalid-parameter`, named where it can be.
    @Test func parametersAreCheckedAfterTheTokenAndAre400() async throws {
        try await APIHarness().run { api in
            let ada = try await api.user("ada@moa.example")
            let paths = [
                "/v1/transfers?limit=abc", "/v1/transfers?limit=0", "/v1/settings/bogus", "/v1/inbox?before=0", "/v1/inbox?unread=maybe",
                "/v1/inbox?limit=abc", "/v1/accounts/110-0000-0000-7/history?limit=999",
            ]
            for path in paths {
                let anonymous = try await api.send(.get, path)
                #expect(anonymous.status == .unauthorized, "\(path) without a token → \(anonymous.status)")
                let reply = try await api.send(.get, path, token: ada.access)
                #expect(reply.status == .badRequest, "\(path) → \(reply.status) \(reply.text)")
                #expect(reply.problem == "invalid-parameter", "\(path): \(reply.text)")
                #expect(reply.object["exit_status"] as? Int == 64)
                #expect(!(reply.object["detail"] as? String ?? "").contains("JSON"))
            }
            let zero = try await api.send(.post, "/v1/inbox/0/read", token: ada.access)
            #expect(zero.status == .badRequest)
            #expect(zero.object["field"] as? String == "notice_id")
            #expect(try await api.send(.post, "/v1/inbox/0/read").status == .unauthorized)
        }
    }

    /// A user's accounts are bounded (20 open) and listed page by page, the next page's cursor in the
    /// `Moa-Next-Cursor` header; without `limit` one page holds them all, as before paging.
    @Test func accountsAreBoundedAndTheListIsPaged() async throws {
        let nextCursor = HTTPField.Name("Moa-Next-Cursor")!
        try await APIHarness().run { api in
            let ada = try await api.user("ada@moa.example")
            var opened: [String] = []
            for serial in 1...20 { opened.append(try await api.account(ada, name: "Account \(serial)")) }
            let refused = try await api.send(
                .post, "/v1/accounts", json: ["type": "savings", "name": "One too many"], token: ada.access)
            #expect(refused.status == .conflict && refused.problem == "conflict", "\(refused.status) \(refused.text)")
            #expect(refused.object["exit_status"] as? Int == 1)
            #expect((refused.object["detail"] as? String ?? "").contains("20 open accounts"))

            var listed: [String] = []
            var path: String? = "/v1/accounts?limit=7"
            var pages = 0
            while let next = path, pages < 10 {
                let page = try await api.send(.get, next, token: ada.access)
                #expect(page.status == .ok, "\(next): \(page.status) \(page.text)")
                listed += page.array.compactMap { $0["number"] as? String }
                path = page.headers[nextCursor].map { "/v1/accounts?limit=7&cursor=\($0)" }
                pages += 1
            }
            #expect(pages == 3)
            #expect(listed == opened)
            let all = try await api.send(.get, "/v1/accounts", token: ada.access)
            #expect(all.array.count == 20 && all.headers[nextCursor] == nil, "the default page holds every account")
            #expect(try await api.send(.get, "/v1/accounts?limit=201", token: ada.access).status == .badRequest)

            // A cursor this route did not give, or one of another list, is refused.
            let history = try await api.send(.get, "/v1/accounts/\(opened[0])/history?limit=1", token: ada.access)
            #expect(history.status == .ok)
            for cursor in ["bm9wZQ", "djE6NDI"] {
                let reply = try await api.send(.get, "/v1/accounts?cursor=\(cursor)", token: ada.access)
                #expect(reply.status == .unprocessableContent && reply.problem == "validation", "\(cursor): \(reply.text)")
            }
            // Bob cannot page through Ada's accounts with her cursor.
            let bob = try await api.user("bob@moa.example")
            _ = try await api.account(bob)
            let first = try await api.send(.get, "/v1/accounts?limit=1", token: ada.access)
            let adasCursor = first.headers[nextCursor] ?? "missing"
            #expect(adasCursor.allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" }, "\(adasCursor) is sent as it is")
            let stolen = try await api.send(.get, "/v1/accounts?cursor=\(adasCursor)", token: bob.access)
            #expect(stolen.status == .unprocessableContent, "\(stolen.status) \(stolen.text)")
        }
    }

    @Test func refreshRotatesAndReuseRevokesTheFamily() async throws {
        try await APIHarness().run { api in
            let first = try await api.user("ada@moa.example")
            let rotated = try await api.send(.post, "/v1/auth/refresh", json: ["refresh_token": first.refresh])
            #expect(rotated.status == .ok)
            let second = try APIHarness.Session(rotated)
            #expect(second.access != first.access && second.refresh != first.refresh)
            // The old access token stopped working with the rotation; the new one works.
            #expect(try await api.send(.get, "/v1/accounts", token: first.access).status == .unauthorized)
            #expect(try await api.send(.get, "/v1/accounts", token: second.access).status == .ok)

            // The first refresh token again (a copy): 401, and the whole family is revoked.
            let reuse = try await api.send(.post, "/v1/auth/refresh", json: ["refresh_token": first.refresh])
            #expect(reuse.status == .unauthorized)
            #expect(try await api.send(.get, "/v1/accounts", token: second.access).status == .unauthorized)
            #expect(try await api.send(.post, "/v1/auth/refresh", json: ["refresh_token": second.refresh]).status == .unauthorized)

            // The user is told, in the inbox of a new session.
            let third = try await api.logIn("ada@moa.example")
            let inbox = try await api.send(.get, "/v1/inbox", token: third.access)
            #expect((inbox.object["notices"] as? [[String: Any]] ?? []).contains { $0["kind"] as? String == "refresh-token-reuse" })
        }
    }

    @Test func logoutRevokesOnTheServer() async throws {
        try await APIHarness().run { api in
            let ada = try await api.user("ada@moa.example")
            let laptop = try await api.logIn("ada@moa.example")
            let out = try await api.send(.post, "/v1/auth/logout", token: ada.access)
            #expect(out.status == .ok)
            #expect(out.object["status"] as? String == "logged-out")
            #expect(try await api.send(.get, "/v1/accounts", token: ada.access).status == .unauthorized)
            #expect(try await api.send(.post, "/v1/auth/refresh", json: ["refresh_token": ada.refresh]).status == .unauthorized)
            // Another session of the same user lives on, until it logs out everywhere.
            #expect(try await api.send(.get, "/v1/accounts", token: laptop.access).status == .ok)
            let phone = try await api.logIn("ada@moa.example")
            #expect(try await api.send(.post, "/v1/auth/logout", json: ["everywhere": true], token: laptop.access).status == .ok)
            #expect(try await api.send(.get, "/v1/accounts", token: phone.access).status == .unauthorized)
        }
    }

    @Test func loginThrottlingHoldsOnTheServer() async throws {
        try await APIHarness().run { api in
            _ = try await api.user("ada@moa.example")
            for _ in 0..<5 {
                let wrong = try await api.send(
                    .post, "/v1/auth/login", json: ["email": "ada@moa.example", "password": "not the password at all"])
                #expect(wrong.status == .forbidden)
                #expect(wrong.problem == "invalid-credentials")
            }
            // Locked, even with the right password: 429 with Retry-After.
            let locked = try await api.send(
                .post, "/v1/auth/login", json: ["email": "ada@moa.example", "password": "plum-orbit-lantern-42-quietly"])
            #expect(locked.status == .tooManyRequests)
            #expect(locked.problem == "rate-limited")
            #expect(Int(locked.headers[.retryAfter] ?? "") ?? 0 > 0)
            #expect(!locked.text.contains("access_token"))
        }
    }

    /// A new verification code at most once a minute — silently, as for every address — and no
    /// new guesses with it: five wrong codes lock the guessing client out (429, Retry-After).
    @Test func newVerificationCodesAreRationed() async throws {
        try await APIHarness().run { api in
            let password = "plum-orbit-lantern-42-quietly"
            let signUp = try await api.send(.post, "/v1/auth/signup", json: ["email": "bo@moa.example", "password": password])
            #expect(signUp.status == .created)
            let resend = try await api.send(.post, "/v1/auth/verify/resend", json: ["email": "bo@moa.example"])
            #expect(resend.status == .ok && resend.object["verification_mail"] == nil)
            let code = try api.mailedCode(to: "bo@moa.example")
            let wrong = code == "000000" ? "111111" : "000000"
            for _ in 0..<5 {
                let answer = try await api.send(
                    .post, "/v1/auth/verify", json: ["email": "bo@moa.example", "code": wrong, "password": password])
                #expect(answer.status == .forbidden)
            }
            let locked = try await api.send(
                .post, "/v1/auth/verify", json: ["email": "bo@moa.example", "code": code, "password": password])
            #expect(locked.status == .tooManyRequests)
            #expect(locked.problem == "rate-limited")
            #expect(Int(locked.headers[.retryAfter] ?? "") ?? 0 > 0)
            #expect(locked.object["exit_status"] as? Int == 75)
        }
    }

    /// Attempts on one address are counted one by one however many arrive at once: the lockout holds.
    @Test func concurrentWrongPasswordsStillLockTheAddress() async throws {
        try await APIHarness().run { api in
            _ = try await api.user("ada@moa.example")
            let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
                for _ in 0..<12 {
                    group.addTask {
                        try await api.send(
                            .post, "/v1/auth/login", json: ["email": "ada@moa.example", "password": "not the password at all"]
                        )
                        .status.code
                    }
                }
                var all: [Int] = []
                for try await status in group { all.append(status) }
                return all
            }
            #expect(statuses.filter { $0 == 403 }.count == 5)
            #expect(statuses.filter { $0 == 429 }.count == 7)
            let right = try await api.send(
                .post, "/v1/auth/login", json: ["email": "ada@moa.example", "password": "plum-orbit-lantern-42-quietly"])
            #expect(right.status == .tooManyRequests)
        }
    }

    /// Issue 15, item 5 and its acceptance: malformed bodies to every POST/PUT/PATCH route are 4xx
    /// problem documents, never 5xx.
    @Test func malformedBodiesAreProblemsOnEveryWritingRoute() async throws {
        try await APIHarness().run { api in
            let ada = try await api.user("ada@moa.example")
            let adas = try await api.account(ada)
            let key: HTTPFields = [HTTPField.Name("Idempotency-Key")!: "k"]
            let routes: [(HTTPRequest.Method, String, HTTPFields)] = [
                (.post, "/v1/auth/signup", [:]), (.post, "/v1/auth/verify", [:]), (.post, "/v1/auth/verify/resend", [:]),
                (.post, "/v1/auth/login", [:]), (.post, "/v1/auth/refresh", [:]), (.post, "/v1/auth/logout", [:]),
                (.post, "/v1/auth/password/change", [:]), (.post, "/v1/auth/password/reset", [:]),
                (.post, "/v1/auth/password/reset/complete", [:]), (.post, "/v1/auth/delete", [:]),
                (.post, "/v1/accounts", [:]), (.patch, "/v1/accounts/\(adas)", [:]),
                (.post, "/v1/accounts/\(adas)/deposits", [:]), (.post, "/v1/accounts/\(adas)/withdrawals", [:]),
                (.post, "/v1/transfers", key), (.post, "/v1/recipients", [:]),
                (.put, "/v1/settings/transfer.daily-limit", [:]),
            ]
            let bodies = [
                "{", "[]", "\"text\"", "{\"amount\": 5}", "{\"unknown\": 1, \"email\": \"a@b.c\"}", "{\"everywhere\": \"yes\"}", "null",
            ]
            for (method, path, headers) in routes {
                for body in bodies {
                    let reply = try await api.send(method, path, body: body, token: ada.access, headers: headers)
                    #expect((400..<500).contains(reply.status.code), "\(method) \(path) \(body) → \(reply.status) \(reply.text)")
                    #expect(reply.problem != nil, "\(method) \(path) \(body)")
                }
                let wrongType = try await api.send(
                    method, path, body: "{}", token: ada.access, headers: headers.merging([.contentType: "text/plain"]))
                #expect((400..<500).contains(wrongType.status.code), "\(method) \(path) as text/plain → \(wrongType.status)")
            }
            // An unknown field is named.
            let unknown = try await api.send(.post, "/v1/accounts/\(adas)/deposits", body: #"{"amout": "5"}"#, token: ada.access)
            #expect(unknown.status == .badRequest)
            #expect(unknown.problem == "unknown-field" || unknown.problem == "malformed-request")
            let extra = try await api.send(
                .post, "/v1/accounts/\(adas)/deposits", body: #"{"amount": "5", "amout": "5"}"#, token: ada.access)
            #expect(extra.problem == "unknown-field")
            #expect(extra.object["field"] as? String == "/amout")
            #expect(try await api.balance(ada, adas) == 0)
        }
    }
}

extension HTTPFields {
    func merging(_ other: HTTPFields) -> HTTPFields {
        var merged = self
        for field in other { merged[field.name] = field.value }
        return merged
    }
}
