import APIServing
import ArchiveDomain
import Foundation
import SharedKit

/// Archive's own problem kinds: a person at the server's ticket limit is 409 `too-many-tickets`, a
/// refusal a client tells apart from archiving the same event twice (409 `conflict`).
public enum ArchiveProblems {
    public static let classifier: ProblemCatalog.Classifier = { error, _ in
        guard case ArchiveError.tooManyTickets? = error as? ArchiveError else { return nil }
        return ProblemCatalog.conflict(error, kind: "too-many-tickets", title: "Too many tickets")
    }
}
