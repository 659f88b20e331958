// TinyMCE is bundled from the npm package and served by the app itself: no cloud, no API key.
// The side-effect imports register the core, its model, theme, icons, skins and plugins on the
// global `tinymce`, so the editor never fetches a script or style sheet at run time. Only the
// editor route imports this module, so all of it sits in that route's lazy chunk.
import 'tinymce/tinymce.js';
import 'tinymce/models/dom/model.js';
import 'tinymce/themes/silver/theme.js';
import 'tinymce/icons/default/icons.js';
import 'tinymce/skins/ui/oxide/skin.js';
import 'tinymce/skins/ui/oxide/content.js';
import 'tinymce/skins/content/default/content.js';
import 'tinymce/plugins/anchor/plugin.js';
import 'tinymce/plugins/autolink/plugin.js';
import 'tinymce/plugins/charmap/plugin.js';
import 'tinymce/plugins/codesample/plugin.js';
import 'tinymce/plugins/emoticons/plugin.js';
import 'tinymce/plugins/emoticons/js/emojis.js';
import 'tinymce/plugins/image/plugin.js';
import 'tinymce/plugins/link/plugin.js';
import 'tinymce/plugins/lists/plugin.js';
import 'tinymce/plugins/media/plugin.js';
import 'tinymce/plugins/searchreplace/plugin.js';
import 'tinymce/plugins/table/plugin.js';
import 'tinymce/plugins/visualblocks/plugin.js';
import 'tinymce/plugins/wordcount/plugin.js';
import { Editor, type IAllProps } from '@tinymce/tinymce-react';
import { useImperativeHandle, useRef, useState, type Ref } from 'react';
import type { Editor as TinyMceEditor } from 'tinymce';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { giveIndicFonts } from '../utils/editor-fonts.ts';

/** What the template form may do to the editor from outside it. */
export type RichTextEditorHandle = {
  /** Puts plain text where the cursor is (or was, before the editor lost focus). */
  insertText: (text: string) => void;
};

export type RichTextEditorProps = {
  /** The editing area's accessible name (the iframe's title). */
  label: string;
  /** The HTML to start from; later changes to it are ignored (the editor owns its content). */
  initialValue: string;
  onChange: (html: string) => void;
  ref?: Ref<RichTextEditorHandle>;
};

const plugins = [
  'anchor',
  'autolink',
  'charmap',
  'codesample',
  'emoticons',
  'image',
  'link',
  'lists',
  'media',
  'searchreplace',
  'table',
  'visualblocks',
  'wordcount',
];

// The spec's toolbar without its three cloud-only (paid) items: comments and the accessibility
// checker have no free equivalent and are left out; spell checking is the browser's own
// (`browser_spellcheck`), in place of the cloud spellchecker's button.
const toolbar = [
  'undo redo',
  'blocks fontfamily fontsize',
  'bold italic underline strikethrough',
  'link image media table',
  'align lineheight',
  'numlist bullist indent outdent',
  'emoticons charmap',
  'removeformat',
].join(' | ');

const baseInit: NonNullable<IAllProps['init']> = {
  plugins,
  toolbar,
  // Every tool in sight: the editor column is narrow beside the placeholders.
  toolbar_mode: 'wrap',
  height: 560,
  promotion: false,
  browser_spellcheck: true,
  // TinyMCE's own context menu would hide the browser's spelling suggestions.
  contextmenu: false,
  // Templates are printed by the server: keep URLs (and `{{placeholders}}` in them) as written,
  // not rewritten relative to this page's address.
  convert_urls: false,
  // Keep the rupee sign and Indian scripts as characters, not entities.
  entity_encoding: 'raw',
  // The seeded templates open with a <style> block; without this the editor would drop it.
  valid_children: '+body[style]',
  // Keep plain <span>s (TinyMCE unwraps those without attributes): a template's style sheet may lay them out.
  extended_valid_elements: 'span',
  // Images are pasted into the template itself: the PDF renderer loads data: URLs only.
  paste_data_images: true,
  automatic_uploads: false,
};

/** TinyMCE, self-hosted, with the spec's plugins and toolbar. */
export function RichTextEditor({ label, initialValue, onChange, ref }: RichTextEditorProps) {
  const editorRef = useRef<TinyMceEditor | null>(null);
  const [ready, setReady] = useState(false);

  useImperativeHandle(
    ref,
    () => ({
      insertText: (text) => {
        const editor = editorRef.current;
        if (!editor) return;
        editor.focus();
        editor.insertContent(editor.dom.encode(text));
      },
    }),
    [],
  );

  return (
    <>
      {!ready && <Spinner label="Loading the editor" />}
      <Editor
        licenseKey="gpl"
        // No global `tinymce` would be a bundling fault: fail rather than fetch TinyMCE from the cloud.
        tinymceScriptSrc={[]}
        initialValue={initialValue}
        // TinyMCE names the editing area on its body, and titles the iframe only in Firefox.
        init={{ ...baseInit, iframe_aria_text: label, iframe_attrs: { title: label } }}
        onInit={(_event, editor) => {
          editorRef.current = editor;
          // A Hindi or Tamil template reads in the frame as it prints, on any machine; again once new
          // content (its own <style>) is in, which TinyMCE finishes after its events.
          const fonts = () => window.setTimeout(() => giveIndicFonts(editor.getDoc()), 0);
          fonts();
          editor.on('SetContent', fonts);
          setReady(true);
        }}
        onEditorChange={(html) => onChange(html)}
      />
    </>
  );
}
