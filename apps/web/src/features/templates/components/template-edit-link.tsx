import { Link } from 'react-router';

/** The Action cell of a template list: an edit link named after its template for screen readers. */
export function TemplateEditLink({ name, href }: { name: string; href: string }) {
  return (
    <Link className="button button-secondary button-small" to={href}>
      Edit<span className="visually-hidden"> {name}</span>
    </Link>
  );
}
