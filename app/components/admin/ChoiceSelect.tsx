/** A labelled select of records by name, with a first empty choice ("All teams", "Choose an action") when `empty` is given. */
export function ChoiceSelect({ id, name, label, empty, options, defaultValue = "" }: { id: string; name: string; label: string; empty?: string; options: readonly { id: string; name: string }[]; defaultValue?: string }) {
  return (
    <div>
      <label htmlFor={id} className="block font-semibold">
        {label}
      </label>
      <select id={id} name={name} defaultValue={defaultValue} className="rounded border border-stone-500 px-2 py-1">
        {empty === undefined ? null : <option value="">{empty}</option>}
        {options.map((o) => (
          <option key={o.id} value={o.id}>
            {o.name}
          </option>
        ))}
      </select>
    </div>
  );
}
