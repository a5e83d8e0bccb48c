// Screen Lines that draw every component of the catalog (several kinds of some), for the browser audits.

/** The tables the query views read: made once, by the first screen that carries them. */
export const TABLE_LINES = [
  'table create runs Day:text Km:number',
  'put runs Day=Mon Km=3',
  'put runs Day=Tue Km=5',
  'table create shopping Item:text Done:bool',
  'put shopping milk Item=Milk',
  'put shopping bread Item=Bread Done=on',
].join('\n');

/** Every component, with `image` and `gallery` pointing at `base` (the service's own icon). */
export function everyComponent(base: string): string {
  return [
    'text **Plan** for today, with `code` and a [link](https://example.com)',
    'timer 5m Stretch',
    'choose@lunch "Lunch?" Soup|Salad|Pizza',
    'choose "Toppings?" Cheese|Olives|"Hot peppers" +multi',
    'confirm "Send the report now?"',
    'buttons "What next?" Continue|Stop',
    'buttons Done layout=stack',
    'checkin mood "How do you feel?"',
    'checkin rating "Rate the walk"',
    'checkin scale "Pain today?" max=5',
    'checklist "Before you leave" Keys|Wallet',
    'ask "What should I call you?" placeholder=Sam',
    'ask "Your email?" type=email placeholder=name@example.com',
    'ask "Notes?" type=long',
    'form "Visit" name:text age:number day:date ok:bool',
    'photo "Show me the plant"',
    'deck "Breathe in"|"Hold"|"Breathe out"',
    'group card "Today"',
    'stat 72.5 Weight unit=kg change=-0.4 good=down',
    'stat 12 Steps unit=k change=2 good=down',
    'progress 3/10 Chapters read',
    'end',
    'chart bar Mon=3|Tue=5|Wed=2 "Runs this week" unit=km',
    'chart pie Work=5|Play=3 "Time"',
    'math E = mc^2',
    'link https://example.com/recipe "The recipe"',
    'divider',
    `image ${base}/icon.svg "Our icon"`,
    'image prompt="a red fox in snow" Fox',
    `gallery ${base}/icon.svg ${base}/icon.svg view=grid`,
    'query runs as table',
    'query runs as chart line x=Day y=Km unit=km',
    'query shopping as list check=Done',
    'query runs sum=Km as stat label="Km so far" good=up',
    'query runs as send',
  ].join('\n');
}
