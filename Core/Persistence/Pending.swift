/// The answer to a read a store put on the wire without waiting for it, inside a transaction.
///
/// An engine that talks to its database over a connection (PostgreSQL) can have several reads of a
/// transaction in flight and wait for them once, instead of once each: a store's `pending…` method
/// sends its read and returns at once, and ``value()`` waits for the answer — with every other
/// statement the transaction has sent so far — only when the caller needs it, unless a later
/// statement already waited. The first of those that failed is what ``value()`` throws, and the
/// transaction's failure whatever the caller makes of it.
/// An engine that answers each statement at once returns a value already there (``ready(_:)``).
/// Used inside its transaction, by the code that opened it, on its thread.
public struct Pending<Value> {
    private let answer: () throws -> Value

    /// A read whose answer `answer` waits for; called at most as often as ``value()`` is.
    public init(_ answer: @escaping () throws -> Value) {
        self.answer = answer
    }

    /// A read already answered.
    public static func ready(_ value: Value) -> Pending { Pending { value } }

    /// The read's answer, once it came; what refused it otherwise.
    public func value() throws -> Value { try answer() }
}
