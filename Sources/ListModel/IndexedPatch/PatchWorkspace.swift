/// An `IndexedList`'s document while a JSON Patch is applied to it, in a form that mirrors
/// the document's JSON exactly but leaves untouched sections and rows where they are.
///
/// Each operation is resolved against the list's structure: the document object, the
/// `sections` array, each section object, each `rows` array, each row. Whatever the patch
/// reaches below a row (or in any other member) is plain JSON, edited by the same code as a
/// whole-document patch, so results and error messages are the same. An operation on the
/// whole document turns the workspace into plain JSON (`whole`), at O(n).
struct PatchWorkspace {
    /// One section while the patch is applied.
    enum SectionSlot {
        /// Section `index` of the old document, untouched.
        case original(Int)
        /// A section of the old document whose members or rows the patch reached.
        case edited(EditedSection)
        /// A section the patch added (or set whole), as JSON.
        case json(JSONValue)
    }

    /// An old section being edited: its object with `rows` set to `[]` while `rows` holds them.
    struct EditedSection {
        /// The section's index in the old document.
        var origin: Int
        /// The section object; when `rows` is set, its `rows` member is a placeholder `[]`.
        var members: JSONObject
        /// The rows, when the `rows` member is still an array of rows the workspace tracks.
        var rows: WorkingRows?
    }

    /// A value taken out by `remove` (or the `from` of a `move`), kept in its structured form
    /// so that it can be put back elsewhere without being turned into JSON.
    enum Detached {
        case json(JSONValue)
        case row(RowSlot)
        case section(SectionSlot)
        case rows(WorkingRows)
        case sections([SectionSlot])
    }

    let list: IndexedList
    /// The old document's columns: untouched rows read back as JSON with them.
    let oldColumns: [Column]
    /// The document object; when `sections` is set, its `sections` member is a placeholder `[]`.
    var members: JSONObject
    /// The sections, while the `sections` member is still an array the workspace tracks.
    var sections: [SectionSlot]?
    /// The whole document as JSON, once an operation reached the document itself.
    var whole: JSONValue?

    init(list: IndexedList) {
        self.list = list
        let document = list.document
        oldColumns = document.columns
        var shell = document
        shell.sections = []
        guard case .object(let object) = shell.json else { preconditionFailure("a document's JSON is an object") }
        members = object
        sections = document.sections.indices.map(SectionSlot.original)
    }

    /// The placeholder that stands for a tracked `sections` or `rows` array in its object.
    static let placeholder = JSONValue.array([])

    // MARK: JSON of the pieces

    /// The document as JSON: exactly what the patch applied to the whole document's JSON
    /// would have made by now.
    func json() -> JSONValue {
        if let whole { return whole }
        var object = members
        if let sections { object["sections"] = .array(sections.map(json(of:))) }
        return .object(object)
    }

    func json(of slot: SectionSlot) -> JSONValue {
        switch slot {
        case .original(let index):
            return list.document.sections[index].json(columns: oldColumns)
        case .edited(let section):
            var object = section.members
            if let rows = section.rows { object["rows"] = json(of: rows) }
            return .object(object)
        case .json(let value):
            return value
        }
    }

    func json(of rows: WorkingRows) -> JSONValue {
        var elements: [JSONValue] = []
        elements.reserveCapacity(rows.count)
        for piece in rows.pieces {
            switch piece {
            case .run(let section, let range):
                let old = list.document.sections[section].rows
                for index in range { elements.append(old[index].json(columns: oldColumns)) }
            case .slots(let slots):
                for slot in slots { elements.append(json(of: slot)) }
            }
        }
        return .array(elements)
    }

    func json(of slot: RowSlot) -> JSONValue {
        switch slot {
        case .original(let section, let row): return list.document.sections[section].rows[row].json(columns: oldColumns)
        case .json(let value): return value
        }
    }

    func json(of detached: Detached) -> JSONValue {
        switch detached {
        case .json(let value): return value
        case .row(let slot): return json(of: slot)
        case .section(let slot): return json(of: slot)
        case .rows(let rows): return json(of: rows)
        case .sections(let slots): return .array(slots.map(json(of:)))
        }
    }

    /// An old section opened for editing: its members as JSON, its rows one untouched run.
    func edited(_ index: Int) -> EditedSection {
        let section = list.document.sections[index]
        var shell = section
        shell.rows = []
        guard case .object(let object) = shell.json(columns: nil) else { preconditionFailure("a section's JSON is an object") }
        return EditedSection(origin: index, members: object, rows: WorkingRows(section: index, count: section.rows.count))
    }
}
