// Queries are equal when their texts (columns, values, `q`) are equal byte for byte: views
// compare texts by code points with no normalization (API.md section 9), so `q=é` written as
// one code point and as `e` plus an accent are two views, cached apart.

extension ListQuery {
    public static func == (lhs: ListQuery, rhs: ListQuery) -> Bool {
        lhs.sort == rhs.sort && optionalUTF8Equal(lhs.search, rhs.search) && lhs.filters == rhs.filters
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(sort)
        hasher.combine(search.map { ByteKey($0) })
        hasher.combine(filters)
    }
}

extension ListQuery.Sort {
    public static func == (lhs: ListQuery.Sort, rhs: ListQuery.Sort) -> Bool {
        utf8Equal(lhs.column, rhs.column) && lhs.descending == rhs.descending
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(ByteKey(column))
        hasher.combine(descending)
    }
}

extension ListQuery.Filter {
    public static func == (lhs: ListQuery.Filter, rhs: ListQuery.Filter) -> Bool {
        utf8Equal(lhs.column, rhs.column) && lhs.op == rhs.op && optionalUTF8Equal(lhs.value, rhs.value)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(ByteKey(column))
        hasher.combine(op)
        hasher.combine(value.map { ByteKey($0) })
    }
}
