/** REMINDER_DAYS: a comma list of days before the ticket's last day, refused clearly at start-up when wrong. */
import { describe, expect, it } from "vitest";
import { ACCOUNT_MESSAGES } from "~/shared/messages";
import { ConfigError, loadConfig } from "../../server/config";

describe("REMINDER_DAYS", () => {
  it("defaults to 14, 7 and 1 days before the last day and the day after", () => {
    expect(loadConfig({}).REMINDER_DAYS).toEqual([14, 7, 1, -1]);
  });

  it("takes a comma list in any order and spacing, earliest reminder first; empty turns them off", () => {
    expect(loadConfig({ REMINDER_DAYS: " 1, -3 ,30,0" }).REMINDER_DAYS).toEqual([30, 1, 0, -3]);
    expect(loadConfig({ REMINDER_DAYS: "+5" }).REMINDER_DAYS).toEqual([5]);
    expect(loadConfig({ REMINDER_DAYS: "" }).REMINDER_DAYS).toEqual([]);
  });

  it.each([
    ["14,7,x", /"x" is not one/],
    ["14;7", /"14;7" is not one/],
    ["1.5", /"1.5" is not one/],
    ["61", /between -60 and 60/],
    ["14,,1", /"" is not one/],
    ["7,7", /lists a day twice: 7,7/],
  ])("refuses %s with a message naming the variable", (value, message) => {
    expect(() => loadConfig({ REMINDER_DAYS: value })).toThrow(ConfigError);
    expect(() => loadConfig({ REMINDER_DAYS: value })).toThrow(/REMINDER_DAYS: /);
    expect(() => loadConfig({ REMINDER_DAYS: value })).toThrow(message);
  });

  it("is said in words on the account page", () => {
    expect(ACCOUNT_MESSAGES.remindersOn([14, 7, 1, -1])).toBe("We remind you by email 14, 7 and 1 days before your ticket ends and the day after it ended.");
    expect(ACCOUNT_MESSAGES.remindersOn([1])).toBe("We remind you by email 1 day before your ticket ends.");
    expect(ACCOUNT_MESSAGES.remindersOn([3, 0, -2, -5])).toBe("We remind you by email 3 days before your ticket ends, on its last day and 2 and 5 days after it ended.");
    expect(ACCOUNT_MESSAGES.remindersOn([])).toBe("The museum sends no ticket reminders at the moment.");
  });
});
