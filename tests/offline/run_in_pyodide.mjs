// Runs Python in Pyodide under Node, as the narrator's offline page does in the browser:
// node run_in_pyodide.mjs <pyodide dir> <engine.zip> < {"code": "...", "call": "name", "args": [...]}
// The code is executed, then call(*args) is printed as JSON on stdout.
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";

const [dir, enginePath] = process.argv.slice(2);
const { loadPyodide } = await import(pathToFileURL(`${dir}/pyodide.mjs`).href);
const pyodide = await loadPyodide({ indexURL: `${dir}/` });
pyodide.unpackArchive(new Uint8Array(readFileSync(enginePath)), "zip");
const job = JSON.parse(readFileSync(0, "utf8"));
pyodide.runPython(job.code);
pyodide.globals.set("job_args", JSON.stringify(job.args));
const out = pyodide.runPython(`import json as _json\n_json.dumps(${job.call}(*_json.loads(job_args)))`);
process.stdout.write(out);
