extension QueryParams {
    /// The REST parameter names that make a query.
    public static let restParameterNames: Set<String> = [
        "orderBy", "startAt", "startAfter", "endAt", "endBefore", "equalTo", "limitToFirst", "limitToLast",
    ]

    /// Reads REST query parameters (already percent-decoded): `orderBy="$key"|"$value"|"$priority"|
    /// "<child path>"`, `startAt`, `startAfter`, `endAt`, `endBefore`, `equalTo` (a JSON value,
    /// optionally followed by `,` and a JSON key name), `limitToFirst`, `limitToLast`.
    ///
    /// - Returns: The query, or nil when no query parameter is present.
    /// - Throws: ``QueryError`` naming the parameter that is wrong.
    public init?(restParameters parameters: [String: String]) throws(QueryError) {
        guard parameters.keys.contains(where: QueryParams.restParameterNames.contains) else { return nil }
        self.init()
        guard let orderBy = parameters["orderBy"] else {
            throw QueryError("orderBy must be defined when other query parameters are defined")
        }
        guard case .string(let indexName) = try? JSONParser.parse(orderBy) else {
            throw QueryError("orderBy must be a valid JSON encoded path")
        }
        switch indexName {
        case "$key": index = .key
        case "$value": index = .value
        case "$priority": index = .priority
        default:
            try? Validation.validatePathString(indexName)
            index = .child(Path(indexName))
        }
        if let text = parameters["equalTo"] {
            if parameters["startAt"] != nil || parameters["endAt"] != nil || parameters["startAfter"] != nil
                || parameters["endBefore"] != nil
            {
                throw QueryError("equalTo cannot be combined with startAt, startAfter, endAt or endBefore")
            }
            let bound = try QueryParams.restBound(text, parameter: "equalTo", inclusive: true)
            start = bound
            end = bound
        }
        if parameters["startAt"] != nil, parameters["startAfter"] != nil {
            throw QueryError("startAt and startAfter cannot both be set")
        }
        if parameters["endAt"] != nil, parameters["endBefore"] != nil {
            throw QueryError("endAt and endBefore cannot both be set")
        }
        if let text = parameters["startAt"] {
            start = try QueryParams.restBound(text, parameter: "startAt", inclusive: true)
        }
        if let text = parameters["startAfter"] {
            start = try QueryParams.restBound(text, parameter: "startAfter", inclusive: false)
        }
        if let text = parameters["endAt"] {
            end = try QueryParams.restBound(text, parameter: "endAt", inclusive: true)
        }
        if let text = parameters["endBefore"] {
            end = try QueryParams.restBound(text, parameter: "endBefore", inclusive: false)
        }
        if parameters["limitToFirst"] != nil, parameters["limitToLast"] != nil {
            throw QueryError("limitToFirst and limitToLast cannot both be set")
        }
        if let text = parameters["limitToFirst"] {
            limit = try QueryParams.restLimit(text, parameter: "limitToFirst")
            viewFrom = .left
        }
        if let text = parameters["limitToLast"] {
            limit = try QueryParams.restLimit(text, parameter: "limitToLast")
            viewFrom = .right
        }
        try validate()
    }

    private static func restBound(_ text: String, parameter: String, inclusive: Bool) throws(QueryError) -> Bound {
        guard let (value, rest) = try? JSONParser.parsePrefix(text), value.isLeaf else {
            throw QueryError("\(parameter) must be a JSON string, number, boolean or null")
        }
        let trimmed = rest.trimmingCharacters(in: " ")
        if trimmed.isEmpty { return Bound(value: value, inclusive: inclusive) }
        guard trimmed.hasPrefix(","), case .string(let name)? = try? JSONParser.parse(String(trimmed.dropFirst()))
        else {
            throw QueryError("\(parameter) has trailing data after its value; expected ',\"<key>\"'")
        }
        return Bound(value: value, name: ChildKey(name), inclusive: inclusive)
    }

    private static func restLimit(_ text: String, parameter: String) throws(QueryError) -> Int {
        guard let value = Int(text.trimmingCharacters(in: " ")), value > 0 else {
            throw QueryError("\(parameter) must be a positive integer")
        }
        return value
    }
}

extension String {
    fileprivate func trimmingCharacters(in set: Character) -> String {
        var slice = self[...]
        while slice.first == set { slice = slice.dropFirst() }
        while slice.last == set { slice = slice.dropLast() }
        return String(slice)
    }
}
