// Sections and rows for `DocumentReader`: each section's rows read, their keys checked in
// batches (`DocumentReader+RowKeys.swift`).

extension DocumentReader {
    mutating func readSections(_ value: JSONValue) throws(Failure) -> [Section] {
        guard case .array(let elements) = value else { throw typeMismatch("an array of sections", value) }
        guard elements.count <= limits.maxSections else {
            throw Failure(
                pointer: .root,
                message: "must hold at most \(limits.maxSections) sections, got \(elements.count)")
        }
        var result: [Section] = []
        result.reserveCapacity(elements.count)
        // Size the row-key table once: growing it row by row rehashes it ~20 times.
        var expectedRows = 0
        for element in elements {
            if case .object(let object) = element, case .array(let rows) = object["rows"] { expectedRows += rows.count }
        }
        rowPlaces.reserveCapacity(min(expectedRows, limits.maxRows))
        var seen: [ByteKey: Int] = [:]
        do throws(Failure) {
            for (index, element) in elements.enumerated() {
                let section = try within(index) { () throws(Failure) in try readSection(element, index: index) }
                try throwRepeatedRowKey(checkingPending: false)
                if let first = seen[ByteKey(section.key)] {
                    throw Failure(
                        pointer: JSONPointer(tokens: [String(index), "key"]),
                        message: duplicateSectionKeyMessage(section.key, firstAt: first))
                }
                seen[ByteKey(section.key)] = index
                result.append(section)
            }
            try throwRepeatedRowKey(checkingPending: true)
        } catch {
            // The rows read before the error come first: a repeated key among them wins.
            try throwRepeatedRowKey(checkingPending: true)
            throw error
        }
        return result
    }

    mutating func readSection(_ value: JSONValue, index: Int) throws(Failure) -> Section {
        var (section, rowsValue) = try sectionHeader(value)
        // Gathered in an array and cut into chunks once: appending to a `ChunkedArray` row by
        // row was ~10 % of a large document's validation (uniqueness checks, retains).
        var rows: [Row] = []
        rows.reserveCapacity(rowsValue.count)
        for (rowIndex, element) in rowsValue.enumerated() {
            let row = try within("rows", rowIndex) { () throws(Failure) in try readRowContent(element) }
            checkRowKeyLater(row.key, section: index, row: rowIndex)
            rows.append(row)
        }
        section.rows = ChunkedArray(rows)
        return section
    }

    /// A section's members other than its rows, checked in the order `readSection` checks
    /// them, and the elements of its `rows` (none when absent), unchecked.
    func sectionHeader(_ value: JSONValue) throws(Failure) -> (section: Section, rows: [JSONValue]) {
        guard case .object(let object) = value else { throw typeMismatch("an object", value) }
        var key: String?
        var section = Section(key: "")
        var rowsValue: [JSONValue] = []
        for (name, member) in object {
            switch name {
            case "key": key = try within(name) { () throws(Failure) in try self.key(member) }
            case "header": section.header = try within(name) { () throws(Failure) in try optionalText(member) }
            case "footer": section.footer = try within(name) { () throws(Failure) in try optionalText(member) }
            case "collapsible": section.collapsible = try within(name) { () throws(Failure) in try bool(member) }
            case "collapsed": section.collapsed = try within(name) { () throws(Failure) in try bool(member) }
            case "rows":
                guard case .array(let rows) = member else {
                    throw Failure(
                        pointer: JSONPointer(tokens: [name]),
                        message: "must be an array of rows, got \(member.typeName)")
                }
                rowsValue = rows
            default:
                throw unknownMember(name, of: "a section", allowed: "key, header, footer, collapsible, collapsed, rows")
            }
        }
        guard let key else { throw missing("key", of: "a section") }
        section.key = key
        return (section, rowsValue)
    }

    /// A row at `index` of section `section`, its key checked against the rows read before.
    mutating func readRow(_ value: JSONValue, section: Int, index: Int) throws(Failure) -> Row {
        let row = try readRowContent(value)
        if let first = rowPlaces.updateValue((section, index), forKey: row.key) {
            throw Failure(
                pointer: JSONPointer(tokens: ["key"]),
                message: duplicateRowKeyMessage(row.key, firstAt: first))
        }
        return row
    }

    /// A row, counted against the row limit; its key is not checked against other rows.
    mutating func readRowContent(_ value: JSONValue) throws(Failure) -> Row {
        rowCount += 1
        guard rowCount <= limits.maxRows else {
            throw Failure(pointer: .root, message: "the list may hold at most \(limits.maxRows) rows")
        }
        guard case .object(let object) = value else { throw typeMismatch("an object", value) }
        var key: String?
        var row = Row(key: "")
        // The members read in place (iterating copies each one: a retain and release per member).
        let members = object.storage.map { UnsafePointer($0.members) }
        for index in 0..<object.count {
            let member = members.unsafelyUnwrapped + index
            switch member.pointee.key {
            case "key": key = try within("key") { () throws(Failure) in try self.key(member.pointee.value) }
            case "cells": row.cells = try within("cells") { () throws(Failure) in try cells(member.pointee.value) }
            case "href":
                if !member.pointee.value.isNull {
                    row.href = try within("href") { () throws(Failure) in try url(member.pointee.value) }
                }
            case "style":
                row.style = try within("style") { () throws(Failure) in try choice(member.pointee.value, RowStyle.self) }
            default: throw unknownMember(member.pointee.key, of: "a row", allowed: "key, cells, href, style")
            }
        }
        withExtendedLifetime(object) {}
        guard let key else { throw missing("key", of: "a row") }
        row.key = key
        return row
    }
}
