/** `1290000` → `1,290,000 VND` (digit strings, grouped as text: no floating point anywhere). */
export function formatVnd(value: string): string {
  return `${value.replace(/\B(?=(\d{3})+(?!\d))/g, ',')} VND`;
}
