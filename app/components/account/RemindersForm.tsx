/** The one button that turns the ticket's expiry reminders off or on; posts to /account/reminders. */
import { Form } from "react-router";

export function RemindersForm({ on }: { on: boolean }) {
  return (
    <Form method="post" action="/account/reminders" className="mt-3">
      <input type="hidden" name="reminders" value={on ? "off" : "on"} />
      <button type="submit" className="font-semibold text-steel underline hover:text-ink">
        {on ? "Turn ticket reminders off" : "Turn ticket reminders on"}
      </button>
    </Form>
  );
}
