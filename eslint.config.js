import js from "@eslint/js";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";
import tseslint from "typescript-eslint";

export default tseslint.config(
  { ignores: ["build/", "node_modules/", "data/", ".react-router/", "test-results/", "playwright-report/", ".tmp/"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ["**/*.{ts,tsx}"],
    plugins: { "react-hooks": reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      "@typescript-eslint/no-explicit-any": "error",
      "@typescript-eslint/consistent-type-imports": ["error", { fixStyle: "inline-type-imports" }],
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
    },
  },
  {
    // The app reaches server code only through modules named *.server.ts, which React Router's
    // build refuses to ship to the browser, so a secret cannot leak into a bundle by accident.
    files: ["app/**/*.{ts,tsx}"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              regex: "(^|/)server/(?!.*\\.server$)",
              message: "Import server code into app/ only from a module named *.server.ts.",
            },
          ],
        },
      ],
    },
  },
  {
    // The server shares with the app only through app/shared (issue 23): never a route, a
    // component, app/lib or the app's root. The import circles rule is dependency-cruiser's
    // (.dependency-cruiser.cjs, run by `npm run lint`).
    files: ["server/**/*.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              regex: "(^|/)app/(?!shared/)|^~/(?!shared/)",
              message: "server/ imports from app/ only through app/shared: move what both need there.",
            },
          ],
        },
      ],
    },
  },
  {
    // An effect's return value is its cleanup: `useEffect(() => el.scrollIntoView())` hands React
    // whatever the call returns (Chromium's scroll methods now return a Promise), and React then
    // calls it on the next render: "... is not a function" and the error page (issue 10).
    files: ["app/**/*.{ts,tsx}"],
    rules: {
      "no-restricted-syntax": [
        "error",
        {
          selector: "CallExpression[callee.name=/^use(Layout|Insertion)?Effect$/] > ArrowFunctionExpression[expression=true]:not([body.type=/FunctionExpression$/])",
          message: "Give the effect a block body: an effect may return only its cleanup function.",
        },
      ],
    },
  },
  {
    // Browser tests take `test` from tests/e2e/test.ts, which closes the browser contexts a test
    // opened itself: Playwright closes only those it handed the test, and a page left open keeps
    // its scripts running for the rest of the run.
    files: ["tests/e2e/**/*.ts"],
    ignores: ["tests/e2e/test.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          paths: [{ name: "@playwright/test", importNames: ["test"], message: 'Import `test` from "./test" (tests/e2e/test.ts): it closes the contexts a test opened.' }],
        },
      ],
    },
  },
  { files: ["**/*.{js,mjs}"], languageOptions: { globals: globals.node } },
  { files: ["**/*.cjs"], languageOptions: { globals: globals.node, sourceType: "commonjs" } },
  // Runs in the browser, inlined into pages (vite-plugins/inline-script.ts).
  { files: ["app/**/*.js"], languageOptions: { globals: globals.browser } },
);
