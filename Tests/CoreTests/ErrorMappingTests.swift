import Money
import SharedKit
import Testing
import ViewModelKit

@testable import CommandKit

/// The one mapping from error types to exit statuses (SharedKit's `ErrorMapping`): the same answer for
/// the same type, whether a view model, a command or the tour meets the error.
@Suite("one mapping from error types to exit statuses")
struct ErrorMappingTests {
    struct Disk: Error, CustomStringConvertible {
        var description: String { "the disk is full.\nSecond line." }
    }

    @Test("a MoneyError is bad data for a view model and for a command alike; a bug is 70")
    func byTypeNotByPath() {
        let amount = MoneyError.invalidAmount("1e6")
        let viewModel = UnexpectedError.wrap(amount, sentence: "The deposit failed unexpectedly")
        let command = CommandRunner.userFacing(amount)
        #expect(viewModel.exitStatus == .dataError && command.exitStatus == .dataError)
        #expect(viewModel.message == amount.description && command.message == amount.description)
        #expect(CommandRunner.userFacing(MoneyError.divisionByZero).exitStatus == .software)

        let bug = CommandRunner.userFacing(Disk())
        #expect(bug.exitStatus == .software)
        #expect(bug.message == "The command failed unexpectedly: the disk is full. Second line.")
    }

    @Test("what ArgumentParser cannot read is one sentence with a usage status, 64")
    func commandLineErrors() {
        let choices = CommandLineError(
            argumentParserMessage: "The value 'xml' is invalid for '--format <format>'. Please provide one of 'json' and 'csv'.", hint: nil)
        #expect(choices.message == "The value 'xml' is invalid for '--format <format>': use one of 'json' and 'csv'.")
        let listed = CommandLineError(
            argumentParserMessage: "The value 'x' is invalid for '--kind <kind>'. Please provide one of the following:\n  - a\n  - b",
            hint: nil)
        #expect(listed.message == "The value 'x' is invalid for '--kind <kind>': use one of a, b.")
        let suggestion = CommandLineError(argumentParserMessage: "Unknown option '--jsn'. Did you mean '--json'?", hint: nil)
        #expect(suggestion.message == "Unknown option '--jsn': did you mean '--json'?")
        #expect(CommandLineError(argumentParserMessage: "Missing value for '--limit <limit>'", hint: nil).exitStatus == .usage)
    }
}
