/**
 * Import rules ESLint cannot check file by file (issue 23): no import circles anywhere in app/
 * or server/. `npm run lint` runs it after ESLint (`depcruise app server`). The server's
 * boundary (it reaches app/ only through app/shared) is ESLint's no-restricted-imports in
 * eslint.config.js, and repeated here so the graph says it too.
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
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    exclude: { path: "(^|/)(build|node_modules|\\.react-router)/" },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    moduleSystems: ["es6", "cjs"],
  },
};
