// Validates a SARIF log against the official SARIF 2.1.0 schema (rtm.5, the
// final one, as Microsoft ships it in @microsoft/jest-sarif). Exits 1 and
// prints every schema error when the log is invalid; sarif-multitool is not
// used because it exits 0 on schema errors.
//
// usage: node validate.js file.sarif
const fs = require("fs");
const path = require("path");
const Ajv = require("ajv");

const schemaPath = path.join(__dirname, "node_modules/@microsoft/jest-sarif/lib/schemas/sarif-2.1.0-rtm.5.json");
const schema = JSON.parse(fs.readFileSync(schemaPath, "utf8"));
const ajv = new Ajv({ schemaId: "id", allErrors: true, jsonPointers: true });
ajv.addMetaSchema(require("ajv/lib/refs/json-schema-draft-04.json"));
const validate = ajv.compile(schema);

const file = process.argv[2];
if (!file) {
  console.error("usage: node validate.js file.sarif");
  process.exit(2);
}
const log = JSON.parse(fs.readFileSync(file, "utf8"));
if (!validate(log)) {
  for (const e of validate.errors) console.error(`${file}: ${e.dataPath || "/"}: ${e.message}`);
  process.exit(1);
}
if (log.version !== "2.1.0") {
  console.error(`${file}: version is ${log.version}, want 2.1.0`);
  process.exit(1);
}
console.log(`${file}: valid SARIF 2.1.0 (${log.runs[0].results.length} results)`);
