// The readable API page: static HTML generated from the OpenAPI document. No script at all, so it
// works offline and under the strict Content-Security-Policy (only an inline <style>, which it allows).
type Json = Record<string, unknown>;

const escape = (text: unknown): string =>
  String(text).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** `code` spans for backticks in descriptions; everything else escaped. */
const prose = (text: unknown): string => escape(text ?? '').replace(/`([^`]+)`/g, '<code>$1</code>');

const anchor = (text: string) => text.replace(/[^A-Za-z0-9]+/g, '-');

/** A short type name of a JSON Schema, with links to named components. */
function typeOf(schema: Json | undefined): string {
  if (!schema) return 'any';
  if (typeof schema.$ref === 'string') {
    const name = schema.$ref.split('/').pop()!;
    return `<a href="#schema-${anchor(name)}">${escape(name)}</a>`;
  }
  if (Array.isArray(schema.anyOf)) return (schema.anyOf as Json[]).map(typeOf).join(' | ');
  if (Array.isArray(schema.oneOf)) return (schema.oneOf as Json[]).map(typeOf).join(' | ');
  if (Array.isArray(schema.enum)) return (schema.enum as unknown[]).map((v) => `<code>${escape(JSON.stringify(v))}</code>`).join(' | ');
  if (schema.type === 'array') return `array of ${typeOf(schema.items as Json | undefined)}`;
  if (schema.type === 'object' && schema.additionalProperties && typeof schema.additionalProperties === 'object' && !schema.properties) {
    return `object of ${typeOf(schema.additionalProperties as Json)}`;
  }
  if (typeof schema.type === 'string') {
    const limits: string[] = [];
    if (schema.minimum !== undefined && Math.abs(Number(schema.minimum)) < 1e15) limits.push(`≥ ${schema.minimum}`);
    if (schema.maximum !== undefined && Math.abs(Number(schema.maximum)) < 1e15) limits.push(`≤ ${schema.maximum}`);
    if (schema.minLength !== undefined) limits.push(`length ≥ ${schema.minLength}`);
    if (schema.maxLength !== undefined) limits.push(`length ≤ ${schema.maxLength}`);
    if (schema.maxItems !== undefined) limits.push(`at most ${schema.maxItems} items`);
    if (schema.format !== undefined) limits.push(String(schema.format));
    return escape(schema.type) + (limits.length > 0 ? ` <span class="limits">(${escape(limits.join(', '))})</span>` : '');
  }
  return 'any';
}

function propertiesTable(schema: Json): string {
  const properties = (schema.properties ?? {}) as Record<string, Json>;
  const required = new Set((schema.required as string[] | undefined) ?? []);
  if (Object.keys(properties).length === 0) return `<p>${typeOf(schema)}</p>`;
  const rows = Object.entries(properties)
    .map(
      ([name, property]) =>
        `<tr><td><code>${escape(name)}</code>${required.has(name) ? '' : ' <span class="opt">optional</span>'}</td>` +
        `<td>${typeOf(property)}${property.default !== undefined ? ` <span class="limits">default ${escape(JSON.stringify(property.default))}</span>` : ''}</td>` +
        `<td>${prose(property.description ?? '')}</td></tr>`,
    )
    .join('');
  return `<table><thead><tr><th>field</th><th>type</th><th>meaning</th></tr></thead><tbody>${rows}</tbody></table>`;
}

function operationHtml(path: string, method: string, op: Json): string {
  const id = anchor(`${method}-${path}`);
  const parts = [
    `<section class="op" id="${id}"><h3><span class="method ${escape(method)}">${escape(method.toUpperCase())}</span> <code>${escape(path)}</code></h3>`,
  ];
  parts.push(`<p class="summary">${prose(op.summary)}</p>`);
  if (op.description) parts.push(`<p>${prose(op.description)}</p>`);
  if (Array.isArray(op.security) && op.security.length === 0) parts.push('<p class="opt">No token needed.</p>');
  const parameters = (op.parameters ?? []) as Json[];
  if (parameters.length > 0) {
    const rows = parameters
      .map(
        (p) =>
          `<tr><td><code>${escape(p.name)}</code> <span class="opt">${escape(p.in)}${p.required ? '' : ', optional'}</span></td><td>${typeOf(p.schema as Json)}</td><td>${prose(p.description ?? '')}</td></tr>`,
      )
      .join('');
    parts.push(
      `<h4>Parameters</h4><table><thead><tr><th>name</th><th>type</th><th>meaning</th></tr></thead><tbody>${rows}</tbody></table>`,
    );
  }
  const body = op.requestBody as Json | undefined;
  if (body) {
    const schema = ((body.content as Json)['application/json'] as Json).schema as Json;
    parts.push(`<h4>Request body${body.required ? '' : ' <span class="opt">optional</span>'}</h4><p>JSON: ${typeOf(schema)}</p>`);
  }
  const responses = Object.entries((op.responses ?? {}) as Record<string, Json>)
    .map(([status, response]) => {
      const content = response.content as Record<string, Json> | undefined;
      const type = content
        ? Object.entries(content)
            .map(([media, c]) => (media === 'application/json' ? typeOf(c.schema as Json) : escape(media)))
            .join(', ')
        : '';
      return `<tr><td>${escape(status)}</td><td>${prose(response.description)}</td><td>${type}</td></tr>`;
    })
    .join('');
  parts.push(
    `<h4>Responses</h4><table><thead><tr><th>status</th><th>meaning</th><th>body</th></tr></thead><tbody>${responses}</tbody></table></section>`,
  );
  return parts.join('\n');
}

const STYLE = `
body{font:15px/1.5 system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem;color:#1c1c1c}
code{font:13px ui-monospace,monospace;background:#f2f2f2;padding:0 .2em;border-radius:3px}
table{border-collapse:collapse;width:100%;margin:.5rem 0}td,th{border:1px solid #ddd;padding:.3rem .5rem;text-align:left;vertical-align:top}
th{background:#fafafa}.op{border-top:1px solid #ccc;padding-top:.5rem;margin-top:1.5rem}.summary{font-weight:600}
.method{display:inline-block;min-width:4.2rem;text-align:center;border-radius:4px;color:#fff;font-size:13px;padding:.1rem .3rem}
.get{background:#2f6f9f}.post{background:#3b8a3b}.patch{background:#9a6b00}.put{background:#7a4fa0}.delete{background:#a33}
.opt,.limits{color:#666;font-size:13px}nav li{margin:.1rem 0}`;

export function renderApiPage(document: Json): string {
  const info = document.info as Json;
  const paths = document.paths as Record<string, Record<string, Json>>;
  const byTag = new Map<string, string[]>();
  const toc = new Map<string, string[]>();
  for (const [path, methods] of Object.entries(paths)) {
    for (const [method, op] of Object.entries(methods)) {
      const tag = ((op.tags as string[] | undefined) ?? ['Other'])[0]!;
      if (!byTag.has(tag)) {
        byTag.set(tag, []);
        toc.set(tag, []);
      }
      byTag.get(tag)!.push(operationHtml(path, method, op));
      toc
        .get(tag)!
        .push(
          `<li><a href="#${anchor(`${method}-${path}`)}">${escape(method.toUpperCase())} ${escape(path)}</a> — ${prose(op.summary)}</li>`,
        );
    }
  }
  const schemas = ((document.components as Json).schemas ?? {}) as Record<string, Json>;
  const schemaHtml = Object.entries(schemas)
    .map(
      ([name, schema]) =>
        `<section id="schema-${anchor(name)}"><h3>${escape(name)}</h3>${schema.description ? `<p>${prose(schema.description)}</p>` : ''}${propertiesTable(schema)}</section>`,
    )
    .join('\n');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escape(info.title)} ${escape(info.version)}</title><style>${STYLE}</style></head>
<body><h1>${escape(info.title)} <span class="opt">${escape(info.version)}</span></h1>
<p>${prose(info.description)}</p>
<p>Machine-readable: <a href="/api/v1/openapi.json"><code>/api/v1/openapi.json</code></a> (OpenAPI 3.1).</p>
<nav>${[...toc.entries()].map(([tag, items]) => `<h2>${escape(tag)}</h2><ul>${items.join('')}</ul>`).join('')}<h2><a href="#schemas">Schemas</a></h2></nav>
${[...byTag.entries()].map(([tag, ops]) => `<h2>${escape(tag)}</h2>${ops.join('\n')}`).join('\n')}
<h2 id="schemas">Schemas</h2>
${schemaHtml}
</body></html>`;
}
