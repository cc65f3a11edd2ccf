// The semver functions this project calls, each from its own file: the package's index loads all
// of its fifty modules, a twentieth of a CLI call. Call sites keep `semver.valid(…)`.
export { default as Range } from "semver/classes/range.js";
export { default as SemVer } from "semver/classes/semver.js";
export { default as compare } from "semver/functions/compare.js";
export { default as gt } from "semver/functions/gt.js";
export { default as gte } from "semver/functions/gte.js";
export { default as lt } from "semver/functions/lt.js";
export { default as parse } from "semver/functions/parse.js";
export { default as prerelease } from "semver/functions/prerelease.js";
export { default as valid } from "semver/functions/valid.js";
export { default as gtr } from "semver/ranges/gtr.js";
export { default as minVersion } from "semver/ranges/min-version.js";
export { default as validRange } from "semver/ranges/valid.js";
