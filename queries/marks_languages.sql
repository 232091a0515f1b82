-- title: Languages whose marks a question may leave out
-- description: The Latin-script languages with letters of their own whose search folds their marks away (Vietnamese): a question in one may be typed without them.
-- publish: no
select code from language_settings
where script = 'latin' and letters != '' and fold_diacritics = 1
order by ord
