// Task bodies as HTML: markdown-it with raw HTML off (it is shown as text), no images (no request
// leaves the page), and links only to http(s), mailto and the page's own paths.
import MarkdownIt from 'markdown-it';

const md = new MarkdownIt({ html: false, linkify: true });
md.disable('image');
md.validateLink = (url) => /^(https?:|mailto:|\/(?!\/)|#)/i.test(url.trim());
md.renderer.rules.link_open = (tokens, idx, options, _env, self) => {
  tokens[idx].attrSet('rel', 'noopener noreferrer nofollow');
  return self.renderToken(tokens, idx, options);
};

/** The HTML of a Markdown text: safe to set as innerHTML (markdown-it escapes every tag of the source). */
export function renderMarkdown(text) {
  return md.render(text ?? '');
}
