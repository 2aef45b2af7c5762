/** Sends the browser to `to` after `ms` milliseconds (the spec's timed redirects). */
import { useEffect } from "react";
import { useNavigate } from "react-router";

export function useRedirectAfter(to: string | null, ms: number) {
  const navigate = useNavigate();
  useEffect(() => {
    if (to === null) return;
    const id = setTimeout(() => navigate(to), ms);
    return () => clearTimeout(id);
  }, [to, ms, navigate]);
}
