/** Minified scripts the server inlines into pages (vite-plugins/inline-script.ts). */
declare module "*?inline-script" {
  const code: string;
  export default code;
}
