/**
 * A form's submission in the browser when no answer comes back (a dropped connection, or a
 * failure before the page's action could answer): instead of the route error page, which
 * would throw away what the person typed, the page gets `answer(message)` like any other
 * refusal. The 503 status keeps React Router from reloading the page's data after it.
 */
import { data } from "react-router";
import { PAGE_MESSAGES } from "../shared/messages";

export async function orNoAnswer<T, A>(serverAction: () => Promise<T>, answer: (message: string) => A, message: string = PAGE_MESSAGES.noAnswer) {
  try {
    return await serverAction();
  } catch (error) {
    // A redirect is an answer: React Router follows it.
    if (error instanceof Response) throw error;
    return data(answer(message), { status: 503 });
  }
}
