import { IMAGE_MAX_BYTES, imageType, isSvgDocument, readImage } from './integration-images';

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);
const JPEG = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46]);
const svg = (text: string) => Buffer.from(text, 'utf8');

describe('integration images', () => {
  it('tells PNG, JPEG and SVG apart by their bytes', () => {
    expect(imageType(PNG)).toBe('image/png');
    expect(imageType(JPEG)).toBe('image/jpeg');
    expect(imageType(svg('<svg xmlns="http://www.w3.org/2000/svg"><rect width="1" height="1"/></svg>'))).toBe(
      'image/svg+xml',
    );
    expect(imageType(Buffer.from('GIF89a\x01\x00\x01\x00', 'latin1'))).toBeUndefined();
    expect(imageType(Buffer.from('%PDF-1.7'))).toBeUndefined();
  });

  it.each([
    ['with a declaration, comments and a doctype', '<?xml version="1.0"?>\n<!-- x --><!DOCTYPE svg>\n<svg></svg>\n'],
    ['self-closed', "<svg width='2'/>"],
    ['with text and CDATA', '<svg><text>a &amp; b</text><style><![CDATA[ rect { fill: red } ]]></style></svg>'],
  ])('accepts an SVG document %s', (_case, text) => {
    expect(isSvgDocument(svg(text))).toBe(true);
  });

  it.each([
    ['another root element', '<html><svg></svg></html>'],
    ['unclosed tags', '<svg><g></svg>'],
    ['two roots', '<svg></svg><svg></svg>'],
    ['text around the root', 'hello <svg></svg>'],
    ['an internal DTD subset (entities)', '<!DOCTYPE svg [<!ENTITY a "b">]><svg>&a;</svg>'],
    ['an unquoted attribute', '<svg width=1></svg>'],
    ['invalid UTF-8', Buffer.from([0x3c, 0x73, 0x76, 0x67, 0x3e, 0xff, 0x3c, 0x2f, 0x73, 0x76, 0x67, 0x3e])],
  ])('refuses %s', (_case, text) => {
    expect(isSvgDocument(typeof text === 'string' ? svg(text) : text)).toBe(false);
  });

  it('decodes base64 (also a data URL), names the field and caps the size at 1 MB', () => {
    expect(readImage('icon', PNG.toString('base64'))).toEqual({ bytes: PNG, contentType: 'image/png' });
    expect(readImage('icon', `data:image/jpeg;base64,${PNG.toString('base64')}`).contentType).toBe('image/png');
    expect(() => readImage('previewImages[1]', 'not base64!')).toThrow(/^previewImages\[1\]: must be a base64/);
    expect(() => readImage('icon', Buffer.from('plain text').toString('base64'))).toThrow(/^icon: must be a PNG/);
    const big = Buffer.concat([PNG, Buffer.alloc(IMAGE_MAX_BYTES)]);
    expect(() => readImage('icon', big.toString('base64'))).toThrow(/^icon: must be at most 1048576 bytes/);
    const exact = Buffer.concat([PNG, Buffer.alloc(IMAGE_MAX_BYTES - PNG.length)]);
    expect(readImage('icon', exact.toString('base64')).bytes.length).toBe(IMAGE_MAX_BYTES);
  });
});
