package unknownanalyzer // want `analyzers: unknown analyzer "unbounded" \(known: directives, heldconn,`
