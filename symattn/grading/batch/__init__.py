"""A class's answers graded in one run: :mod:`.grade` judges the rows as ``check`` does, and
:mod:`.files` reads the class file and writes the results, resumably."""
