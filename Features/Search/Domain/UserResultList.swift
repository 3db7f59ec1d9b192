import Foundation
import SearchInterface

/// The users of one search, loaded page after page as the person asks for more (the interactive
/// mode's list): pages are appended in order, a user already shown (same id) is dropped, and the
/// list ends when the `Link` header gives no `next` page or the API's 1,000-result cap is reached.
public struct UserResultList: Sendable, Equatable {
    /// Why no further page can be loaded.
    public enum End: Sendable, Equatable {
        /// The last page was loaded (no `next` link).
        case lastPage
        /// The next page would start past the first 1,000 results, which the API never returns.
        case resultCap
    }

    public let query: String
    public let perPage: Int
    public let sort: UserSearchSort?
    /// Every user loaded so far, each once, in the order the pages gave them.
    public private(set) var users: [UserHit]
    /// The page to load next; `nil` once the end is reached.
    public private(set) var nextPage: Int?
    /// Pages loaded so far.
    public private(set) var pagesLoaded: Int
    /// `total_count` of the latest page.
    public private(set) var totalCount: Int
    /// Users dropped because an earlier page had them already.
    public private(set) var duplicatesDropped: Int
    /// Whether any page said the search timed out on the server.
    public private(set) var incompleteResults: Bool
    /// Why the list cannot grow (`nil`: a next page exists).
    public private(set) var end: End?

    /// A list from its first page.
    public init(first page: UserSearchPage) {
        query = page.request.query
        perPage = page.request.perPage
        sort = page.request.sort
        users = []
        nextPage = nil
        pagesLoaded = 0
        totalCount = 0
        duplicatesDropped = 0
        incompleteResults = false
        end = nil
        append(page)
    }

    /// Appends the next page; returns how many users it added (its duplicates are dropped).
    @discardableResult
    public mutating func append(_ page: UserSearchPage) -> Int {
        var seen = Set(users.map(\.id))
        var added = 0
        for user in page.users {
            guard seen.insert(user.id).inserted else {
                duplicatesDropped += 1
                continue
            }
            users.append(user)
            added += 1
        }
        pagesLoaded += 1
        totalCount = page.totalCount
        incompleteResults = incompleteResults || page.incompleteResults
        nextPage = page.nextPage.flatMap { next in
            next > page.request.page && Self.withinCap(page: next, perPage: perPage) ? next : nil
        }
        end = page.nextPage == nil || (page.nextPage ?? 0) <= page.request.page ? .lastPage : (nextPage == nil ? .resultCap : nil)
        return added
    }

    /// Whether the next page starts within the first 1,000 results.
    static func withinCap(page: Int, perPage: Int) -> Bool {
        let (start, overflow) = (page - 1).multipliedReportingOverflow(by: perPage)
        return !overflow && start < UserSearchPage.resultCap
    }
}
