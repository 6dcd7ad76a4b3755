package badkey // want `bhlint configuration: .*badkey/.bhlint.yml: line 1: unknown key "analyzerz".*bhlint.s analyzers are off until it is fixed`
