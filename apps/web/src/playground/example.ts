// The lines a first visit starts with: a bit of everything, including a table and two live queries.
export const EXAMPLE = `text **Good morning!** Here is your plan for today.
timer 10m Stretch
choose@lunch "Lunch?" Soup|Salad|Pizza
table create weights Day:date Weight:number:kg
put weights d1 Day=today-3 Weight=73.2
put weights d2 Day=today-2 Weight=72.9
put weights d3 Day=today-1 Weight=72.5
put weights d4 Day=today Weight=72.1
query weights as stat label="Weight" good=down
query weights as chart line x=Day y=Weight "This week"
checklist "Before you leave" Keys|Wallet|Phone
math \\frac{72.1 - 73.2}{73.2} \\approx -1.5\\%`;
