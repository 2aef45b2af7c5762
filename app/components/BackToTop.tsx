/** "Back to Top" link; the layout's skip target #top is the first element of the page. */
export function BackToTop() {
  return (
    <p className="my-6 text-right">
      <a href="#top" className="text-sm font-semibold text-blue-800 underline underline-offset-2">
        Back to Top
      </a>
    </p>
  );
}
