// One canonical form of an id, from Unicode's own definitions: every place that compares a door's or a controller's id
// (the settings reader, the filters, people, Matter, the settings page, the ids the service sends) compares this, and
// the plugin still sends the service exactly the id it sent. A leaf module: the settings page bundles it too.

/**
 * What carries no meaning in an id: every default-ignorable code point (zero-width characters, joiners, the byte order
 * mark, the soft hyphen, variation selectors, tag characters, the Hangul filler…) and every bidi control (direction
 * marks, embeddings, isolates), as Unicode itself lists them; pasted along from a web page, a chat or a PDF, unseen.
 */
const IGNORABLE = /[\p{Default_Ignorable_Code_Point}\p{Bidi_Control}]/gu;

/** What surrounds an id without being part of it: white space, separators, punctuation (a trailing comma, quotes), controls. */
const EDGES = /^[\p{White_Space}\p{Z}\p{P}\p{Cc}]+|[\p{White_Space}\p{Z}\p{P}\p{Cc}]+$/gu;

const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;
/** EDGES within printable ASCII: the space and the ASCII characters of Unicode's punctuation categories (not $+<=>^`|~). */
const ASCII_EDGES = /^[ !"#%&'()*,\-./:;?@[\\\]_{}]+|[ !"#%&'()*,\-./:;?@[\\\]_{}]+$/g;

/** What an id keeps of a text: the canonical form without the ignorable characters, before its edges are trimmed. */
function folded(text: string): string {
  // NFKC turns compatibility forms (fullwidth letters and digits, ligatures, superscripts) into their plain letters;
  // upper then lower case is Unicode's full case folding for every letter an id can hold ("ß" and "SS" as "ss"); a
  // second NFKC settles what case mapping decomposed.
  return text.normalize('NFKC').replace(IGNORABLE, '').toUpperCase().toLowerCase().normalize('NFKC');
}

/**
 * An id as compared: NFKC, case folded, without default-ignorable characters and bidi controls, with the separators and
 * punctuation around it trimmed. The service's ids are UUIDs (or numbers), where none of these carry meaning.
 */
export function canonicalId(text: string): string {
  // Printable ASCII, which the service's ids are, is its own NFKC and holds nothing ignorable: only case and edges change.
  if (PRINTABLE_ASCII.test(text)) return text.toLowerCase().replace(ASCII_EDGES, '');
  return folded(text).replace(EDGES, '');
}

/**
 * An id as written but for what carries no meaning in it: NFKC, without default-ignorable characters and bidi controls,
 * edges trimmed, but in its own case. Look-alike letters are told from this (src/util/skeleton.ts): case folding first
 * would lose what a letter looks like ("Ƽ" looks like "5", its lower case "ƽ" like "s").
 */
export function uncasedId(text: string): string {
  if (PRINTABLE_ASCII.test(text)) return text.replace(ASCII_EDGES, '');
  return text.normalize('NFKC').replace(IGNORABLE, '').replace(EDGES, '');
}

/** Removes the default-ignorable characters and bidi controls of a text, and nothing else. */
export function withoutIgnorables(text: string): string {
  return text.replace(IGNORABLE, '');
}
