/** Layout shared by the legal pages: a "last modified" line, a table of contents, sections with Back to Top. */
import type { ReactElement, ReactNode } from "react";
import { BackToTop } from "~/components/BackToTop";

export interface LegalSection {
  id: string;
  title: string;
  body: ReactNode;
}

export function LegalDocument({ lastModified, sections }: { lastModified: string; sections: LegalSection[] }): ReactElement {
  return (
    <>
      <p className="font-semibold">{`Last modified: ${lastModified}`}</p>
      <nav aria-label="Contents" className="my-6 rounded bg-white p-4 shadow-sm">
        <ol>
          {sections.map((s) => (
            <li key={s.id}>
              <a href={`#${s.id}`} className="inline-flex min-h-6 items-center">
                {s.title}
              </a>
            </li>
          ))}
        </ol>
      </nav>
      {sections.map((s, i) => (
        <section key={s.id}>
          <h2 id={s.id}>
            {i + 1}. {s.title}
          </h2>
          {s.body}
          <BackToTop />
        </section>
      ))}
    </>
  );
}
