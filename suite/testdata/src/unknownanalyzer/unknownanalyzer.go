package unknownanalyzer // want `analyzers: unknown analyzer "unbounded" \(known: directives, fairclaim, healthprobe, heldconn, poolbudget,`
