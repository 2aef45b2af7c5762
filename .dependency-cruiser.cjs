/**
 * Import rules ESLint cannot check file by file (issue 23): no import circles anywhere in app/
 * or server/. `npm run lint` runs it after ESLint (`depcruise app server`). The server's
 * boundary (it reaches app/ only through app/shared) is ESLint's no-restricted-imports in
 * eslint.config.js, and repeated here so the graph says it too. No domain module under server/
 * imports the console's server/admin.
 */
module.exports = {
  forbidden: [
    {
      name: "no-circular",
      severity: "error",
      comment: "An import circle: modules that need each other to load. Move what both need into a third module.",
      from: {},
      to: { circular: true },
    },
    {
      name: "server-reaches-app-only-through-shared",
      severity: "error",
      comment: "server/ imports from app/ only what app/shared/ offers on purpose.",
      from: { path: "^server/" },
      to: { path: "^app/", pathNot: "^app/shared/" },
    },
    {
      name: "domains-do-not-import-the-console",
      severity: "error",
      comment:
        "A domain module (server/<domain>/) owns its data's writes, the console's included; server/admin " +
        "builds on the domains, never the other way round (issue 23, decision 035). Only the wiring " +
        "(server/services.ts, server/admin-cli.ts) and server/admin itself import server/admin.",
      from: { path: "^server/[^/]+/", pathNot: "^server/admin/" },
      to: { path: "^server/admin/" },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    exclude: { path: "(^|/)(build|node_modules|\\.react-router)/" },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    moduleSystems: ["es6", "cjs"],
  },
};
