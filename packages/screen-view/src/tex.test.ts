import { describe, expect, it } from 'vitest';
import { texToMathml } from './tex.js';

const xml = (tex: string) => texToMathml(document, tex).outerHTML.replace(/ xmlns="[^"]+"/g, '');

describe('texToMathml', () => {
  it('draws scripts, fractions, roots and Greek as MathML labelled with the source', () => {
    const math = texToMathml(document, 'E = mc^2');
    expect(math.namespaceURI).toBe('http://www.w3.org/1998/Math/MathML');
    expect(math.getAttribute('aria-label')).toBe('E = mc^2');
    expect(xml('mc^2')).toContain('<msup><mi>c</mi><mn>2</mn></msup>');
    expect(xml('\\frac{a+1}{2}')).toContain(
      '<mfrac><mrow><mi>a</mi><mo>+</mo><mn>1</mn></mrow><mn>2</mn></mfrac>',
    );
    expect(xml('\\sqrt{x}')).toContain('<msqrt><mi>x</mi></msqrt>');
    expect(xml('\\sqrt[3]{8}')).toContain('<mroot><mn>8</mn><mn>3</mn></mroot>');
    expect(xml('\\alpha \\le \\pi')).toContain('<mi>α</mi><mo>≤</mo><mi>π</mi>');
    expect(xml('x_i^2')).toContain('<msubsup><mi>x</mi><mi>i</mi><mn>2</mn></msubsup>');
    expect(xml('\\sum_{i=1}^{n} i')).toContain('<munderover>');
    expect(xml('\\text{speed} = 3.5')).toContain('<mtext>speed</mtext>');
    expect(xml('1.5\\%')).toContain('<mn>1.5</mn><mo>%</mo>');
  });

  it('never throws: unknown commands show as written and stray braces are skipped', () => {
    expect(xml('\\foo + }x{')).toContain('<mtext>\\foo</mtext>');
    expect(() => texToMathml(document, '^_{{')).not.toThrow();
  });
});
