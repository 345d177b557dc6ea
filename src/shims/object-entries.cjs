// node-polyglot (react-admin's translations) requires the `object.entries` polyfill, whose
// get-intrinsic/call-bind family weighed ~40 KB in the dashboard's first download; every browser
// the dashboard supports has Object.entries. Aliased in vite.config.ts.
module.exports = Object.entries;
