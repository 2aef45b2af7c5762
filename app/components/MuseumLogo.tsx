/** The museum's mark: a gold pennant with the city's three rivers, drawn for this project. */
export function MuseumLogo({ className = "h-10 w-10" }: { className?: string }) {
  return (
    <svg viewBox="0 0 64 64" className={className} role="img" aria-label="Pittsburgh Sports Museum logo">
      <circle cx="32" cy="32" r="30" fill="#101820" stroke="#ffb612" strokeWidth="4" />
      <path d="M14 40 L32 14 L50 40 Z" fill="#ffb612" />
      <path d="M10 46 C20 40 26 50 32 46 S44 40 54 46" stroke="#ffffff" strokeWidth="3" fill="none" />
      <path d="M12 52 C22 46 28 56 34 52 S46 46 52 52" stroke="#ffb612" strokeWidth="3" fill="none" />
    </svg>
  );
}
