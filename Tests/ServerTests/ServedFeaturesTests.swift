import MoaPostgres
import Testing

@testable import MoaServer

/// The one entry per served feature (``MoaServer/features``, `PostgresStores.features`): both
/// engines hold the same features' schemas in the same order, so a feature served on one engine only,
/// or applied before a feature it references on one of them, fails here rather than at a start-up.
@Suite("moa-server · the served features")
struct ServedFeaturesTests {
    @Test func bothEnginesApplyTheSameFeaturesSchemasInTheSameOrder() throws {
        #expect(MoaServer.migrations.map(\.feature) == PostgresStores.migrations.map(\.feature))
        // A feature after those it references: every user-keyed table after Auth's, transfers after accounts.
        let order = MoaServer.migrations.map(\.feature)
        #expect(order.first == "Auth")
        #expect(try #require(order.firstIndex(of: "Account")) < #require(order.firstIndex(of: "Transfer")))
    }

}
