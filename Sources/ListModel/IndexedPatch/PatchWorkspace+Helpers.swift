// The workspace's helpers: sections taken out for an edit and put back, members as JSON, slots.

extension PatchWorkspace {
    /// A section as an operation below it sees it: JSON, or an old section opened for editing.
    enum SectionEdit {
        case json(JSONValue)
        case structured(EditedSection)
    }

    /// Takes section slot `index` out for an edit below it (opening an untouched old section),
    /// leaving a placeholder so that the slot's storage stays unique while it is edited.
    mutating func takeSection(_ index: Int) -> SectionEdit {
        let edit: SectionEdit
        switch sections![index] {
        case .original(let origin): edit = .structured(edited(origin))
        case .edited(let section): edit = .structured(section)
        case .json(let value): edit = .json(value)
        }
        sections![index] = .json(.null)
        return edit
    }

    mutating func putBack(_ edit: SectionEdit, at index: Int) {
        switch edit {
        case .json(let value): sections![index] = .json(value)
        case .structured(let section): sections![index] = .edited(section)
        }
    }

    /// Runs `body` on the document object as a JSON value, in place.
    mutating func withMembers<R>(_ body: (inout JSONValue) throws(JSONPointerError) -> R) throws(JSONPointerError) -> R {
        var object = JSONValue.object(members)
        members = JSONObject()
        defer { members = object.objectValue ?? JSONObject() }
        return try body(&object)
    }

    func sectionSlot(_ value: Detached) -> SectionSlot {
        if case .section(let slot) = value { return slot }
        return .json(json(of: value))
    }

    func rowSlot(_ value: Detached) -> RowSlot {
        if case .row(let slot) = value { return slot }
        return .json(json(of: value))
    }
}

extension PatchWorkspace.EditedSection {
    /// Runs `body` on the section object as a JSON value, in place.
    mutating func withMembers<R>(_ body: (inout JSONValue) throws(JSONPointerError) -> R) throws(JSONPointerError) -> R {
        var object = JSONValue.object(members)
        members = JSONObject()
        defer { members = object.objectValue ?? JSONObject() }
        return try body(&object)
    }
}

/// Whether a reference token is `name`, byte for byte (as object members are matched).
func isToken(_ token: String, _ name: String) -> Bool { utf8Equal(token, name) }
