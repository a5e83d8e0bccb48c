// The bench's mixed corpus (every kind of line an agent writes), and what the parser before issue 25 allocated.

const templates = [
  (i) => `text **Step ${i}**: drink some water and stretch for a minute`,
  (i) => `timer ${(i % 50) + 1}m Stretch break ${i}`,
  (i) => `choose "Lunch ${i}?" Soup|Salad|Pizza|"Hot dog"`,
  (i) => `confirm "Send report ${i}?" Send|Wait`,
  () => 'buttons "What next?" Continue|Pause|Stop layout=stack',
  () => 'checkin mood "How do you feel?"',
  () => 'checklist "Before you leave" Keys|Wallet|Phone|Charger',
  () => 'ask "Weight today?" type=number placeholder=kg',
  () => 'form "Visit" name:text age:number day:date',
  (i) => `chart bar Mon=${i % 9}|Tue=5|Wed=2|Thu=7 "Runs" unit=km`,
  (i) => `stat ${i}.5 Weight unit=kg change=-0.4 good=down`,
  (i) => `progress ${i % 10}/10 Chapters`,
  () => 'table create weights Day:date Weight:number:kg Note:text Done:bool',
  (i) => `put weights Day=today-${i % 30} Weight=${70 + (i % 10)}.5 Note="after run" +Done`,
  (i) => `put shopping item${i} Done=on Qty=${i % 5}`,
  () => 'query weights where=Day>=today-7|Note~run sort=-Day limit=7 as chart line x=Day y=Weight min=60',
  () => 'query runs group=Day:week sum=Km +count as stat label="Km this week" good=up',
  () => 'image https://example.com/photos/cat.jpg "Our cat"',
  () => 'link https://example.com/recipe "The recipe"',
  () => 'divider',
];

/** `lines` mixed lines joined by \n, and how many kinds of line they cycle through. */
export function corpus(lines) {
  const text = Array.from({ length: lines }, (_, i) => templates[i % templates.length](i)).join('\n');
  return { text, kinds: templates.length };
}

/**
 * The parser before issue 25 (chevrotain, ADR 0120), measured by bench/memory.mjs in three runs on Node 24.21.0
 * just before its code was deleted (ADR 0243): bytes allocated a line by one 20,000-character parse of this
 * corpus (6,903, 6,905 and 6,920). Heap allocation hardly moves with the machine's load, so the goal "fewer
 * bytes a line than the reference" keeps this figure; the reference's speed is in ADRs 0120 to 0202.
 */
export const REFERENCE_BYTES_A_LINE = 6_905;
