import ArchiveDomain
import ArchiveInterface
import Foundation
import SettingsInterface
import SharedKit
import ViewModelKit

/// Archive's view model: `moa archive …` commands (and the interactive screens) send it inputs and
/// render its state.
@MainActor
public final class ArchiveViewModel: ReportingViewModel {
    public static let unexpectedErrorSentence = "The archive operation failed"

    public enum Input: Sendable {
        case importFile(path: String)
        case importSample
        /// The live API with a key given on the command line (`--api-key`).
        case importAPI(key: String, from: Int, to: Int?)
        /// The live API with the key of the `archive.api-key` setting (`--api`).
        case importConfiguredAPI(from: Int, to: Int?)
        case events(EventFilters)
        case addFromCatalogue(eventID: String, rating: Int?, memo: String?, attended: String?)
        case addManual(title: String, category: String, region: String, date: String, free: Bool, rating: Int?, memo: String?)
        case list
        case remove(String)
        case taste
        case recommend(limit: Int)
        /// `byteOrderMark`: a CSV starts with U+FEFF (`--bom`).
        case export(ExportFormat, output: String?, byteOrderMark: Bool = false)
        case showPreferences
        case setPreferences(districts: String, categories: String)
        case clearPreferences
        case preferenceChoices
    }

    public typealias Action = Input

    public enum Outcome: Sendable {
        case imported(ImportReport)
        /// A page of the catalogue; `catalogueCount` 0 means nothing was imported yet.
        case events(EventPage, catalogueCount: Int)
        case added(Ticket)
        case tickets([Ticket])
        case removed(Ticket)
        case taste(TasteProfile)
        case recommendations(RecommendationList)
        /// The export; written to `path`, or to be printed when `path` is nil.
        case exported(ExportDocument, path: String?)
        /// The user's preferences (`nil`: none set).
        case preferences(ArchivePreferences?)
        case preferencesSaved(ArchivePreferences)
        /// Whether there were preferences to clear.
        case preferencesCleared(Bool)
        /// What may be chosen: district GUNAMEs (all 25) and the catalogue's categories.
        case preferenceChoices(districts: [String], categories: [String])
    }

    public typealias State = OutcomeState<Outcome>

    public private(set) var state = State()
    private let environment: ArchiveEnvironment
    private let progress: @Sendable (ImportProgress) -> Void

    /// - Parameter progress: told how far an import is (called from any thread).
    public nonisolated init(environment: ArchiveEnvironment, progress: @escaping @Sendable (ImportProgress) -> Void = { _ in }) {
        self.environment = environment
        self.progress = progress
    }

    public func transform(_ input: Input) -> [Action] { [input] }

    public func perform(_ action: Action) async throws {
        state = State()
        let service = environment.service
        switch action {
        case .importFile(let path):
            state.outcome = .imported(try await environment.importer.run(environment.sources.file(path: path), progress: progress))
        case .importSample:
            state.outcome = .imported(try await environment.importer.run(environment.sources.sample(), progress: progress))
        case .importAPI(let key, let from, let to):
            try CatalogueImporter.validateRows(from: from, to: to)
            let source = environment.sources.seoulOpenAPI(key: key, from: from, to: to)
            state.outcome = .imported(try await environment.importer.run(source, progress: progress))
        case .importConfiguredAPI(let from, let to):
            try CatalogueImporter.validateRows(from: from, to: to)
            guard let key = try await environment.settings.snapshot().archiveAPIKey, !key.isEmpty else {
                throw ArchiveImportError.apiKeyNotSet
            }
            let source = environment.sources.seoulOpenAPI(key: key, from: from, to: to)
            state.outcome = .imported(try await environment.importer.run(source, progress: progress))
        case .events(let filters):
            let pageSize = try await environment.settings.snapshot().pageSize
            let query = try filters.query(defaultPerPage: pageSize)
            let page = try await environment.catalogue.search(query)
            state.outcome = .events(page, catalogueCount: try await environment.catalogue.count())
        case .addFromCatalogue(let eventID, let rating, let memo, let attended):
            let day = try attended.map { text throws(ArchiveError) in try ArchiveService.day(text, field: "--attended") }
            state.outcome = .added(try await service.add(eventID: eventID, rating: rating, memo: memo, attendedOn: day))
        case .addManual(let title, let category, let region, let date, let free, let rating, let memo):
            let day = try ArchiveService.day(date, field: "--date")
            let ticket = ManualTicket(
                title: title, category: category, district: region, isFree: free, attendedOn: day, rating: rating, memo: memo)
            state.outcome = .added(try await service.addManual(ticket))
        case .list:
            state.outcome = .tickets(try await service.list())
        case .remove(let reference):
            state.outcome = .removed(try await service.remove(reference))
        case .taste:
            state.outcome = .taste(try await service.taste())
        case .recommend(let limit):
            state.outcome = .recommendations(try await service.recommend(limit: limit))
        case .export(let format, let output, let byteOrderMark):
            let document = try await service.export(format, byteOrderMark: byteOrderMark)
            if let output { try await environment.writer.write(Data(document.text.utf8), to: output) }
            state.outcome = .exported(document, path: output)
        case .showPreferences:
            state.outcome = .preferences(try await service.preferences())
        case .setPreferences(let districts, let categories):
            state.outcome = .preferencesSaved(try await service.setPreferences(districts: districts, categories: categories))
        case .clearPreferences:
            state.outcome = .preferencesCleared(try await service.clearPreferences())
        case .preferenceChoices:
            let choices = try await service.preferenceChoices()
            state.outcome = .preferenceChoices(districts: choices.districts, categories: choices.categories)
        }
    }

    public func show(_ error: any UserFacingError) {
        state.fail(with: error)
    }
}
