// `ListDocument.Assembler`: a document put together from its metadata and its rows one at a time.

extension ListDocument {
    /// Puts a document together from its metadata (the document with every section's `rows`
    /// empty) and its rows one at a time, checked as `init(json:)` checks them (the row limit,
    /// cells against the columns, row keys unique in the list), without every row's JSON held at
    /// once: how a store's rows become a list again at a start.
    ///
    /// Errors point where `init(json:)` would point in the whole document
    /// (`/sections/2/rows/7/cells/n`), counting the rows of each section in the order they came.
    public struct Assembler {
        private var reader: DocumentReader
        private var document: ListDocument
        private var rows: [[Row]]
        private let sectionIndex: [ByteKey: Int]

        /// - Parameters:
        ///   - meta: the document with its sections' `rows` empty (rows it holds come first).
        ///   - expectedRows: how many rows will come, to size the row-key table once.
        public init(meta: JSONValue, expectedRows: Int = 0, limits: Limits = Limits()) throws(ListDocumentError) {
            var reader = DocumentReader(limits: limits)
            document = try reader.document(meta)
            reader.rowPlaces.reserveCapacity(min(expectedRows, limits.maxRows))
            self.reader = reader
            rows = document.sections.map { Array($0.rows) }
            var index: [ByteKey: Int] = [:]
            for (position, section) in document.sections.enumerated() { index[ByteKey(section.key)] = position }
            sectionIndex = index
        }

        /// How many sections the metadata has.
        public var sectionCount: Int { rows.count }

        /// The position of the section keyed `key`, if the metadata has one.
        public func section(keyed key: String) -> Int? {
            sectionIndex[ByteKey(key)]
        }

        /// Reads `row` (one row's JSON) as the next row of the section at `section`.
        public mutating func append(_ row: JSONValue, toSection section: Int) throws(ListDocumentError) {
            let index = rows[section].count
            let read: Row
            do { read = try reader.readRowContent(row) } catch {
                throw error.prefixed(["sections", String(section), "rows", String(index)])
            }
            reader.checkRowKeyLater(read.key, section: section, row: index)
            rows[section].append(read)
        }

        /// The document, each section's rows in the order they were appended; throws the first
        /// repeated row key.
        public mutating func finish() throws(ListDocumentError) -> ListDocument {
            do { try reader.throwRepeatedRowKey(checkingPending: true) } catch { throw error.prefixed(["sections"]) }
            for index in document.sections.indices {
                document.sections[index].rows = ChunkedArray(rows[index])
                rows[index] = []
            }
            return document
        }
    }
}
