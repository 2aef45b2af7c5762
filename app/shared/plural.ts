/** A count with its noun, singular for exactly one: plural(1, "row") is "1 row", plural(3, "row") "3 rows". */
export const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;
