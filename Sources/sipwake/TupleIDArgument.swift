/// A tuple id typed on the command line: a positive integer.
enum TupleIDArgument {
    static func parse(_ text: String) throws -> Int64 {
        guard let id = Int64(text), id > 0 else {
            throw CLIError("invalid tuple ID '\(text)': expected a positive number, as shown by 'sipwake tuples list'")
        }
        return id
    }
}
